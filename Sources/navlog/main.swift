import Foundation

// Everything is in the command tree; this file only runs it.
let status = await CommandRunner.main(root: CommandNode(NavlogCommand.self), arguments: Array(CommandLine.arguments.dropFirst()))
exit(status)
