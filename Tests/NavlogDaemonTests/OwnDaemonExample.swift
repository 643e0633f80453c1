import Foundation
import NavlogDaemon
import NavlogHost
import NavlogRuntime

/// A daemon of your own: your apps, your default configuration, the same `navlogd` API.
enum MyDaemon {
    /// One app: a greeting screen with a button that pushes a second screen.
    static let greeter = AppDefinition(name: "greeter", summary: "Says hello") { context, _ in
        GreeterCoordinator(context: context)
    }

    /// Used when no `--config FILE` is given; every key left out takes navlogd's default.
    static let defaultConfiguration = """
        {
          "journal": { "directory": "my-journal" },
          "listen": { "unix_socket": "my-daemon.sock", "tcp": null },
          "apps": { "greeter": {} },
          "labels": { "service": "my-daemon" }
        }
        """

    /// Runs until SIGTERM or SIGINT; returns the exit status (64 for a bad configuration).
    static func main(arguments: [String]) async -> Int32 {
        let path = arguments.first == "--config" ? arguments.dropFirst().first : nil
        do {
            let catalog = try AppCatalog([greeter])
            let configuration = try DaemonConfiguration.load(path: path, defaultText: defaultConfiguration, catalog: catalog)
            let daemon = Daemon(configuration: configuration, catalog: catalog, configurationPath: path, defaultText: defaultConfiguration)
            try await daemon.run()
            return 0
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("my-daemon: \(error)\n".utf8))
            return 64
        } catch {
            FileHandle.standardError.write(Data("my-daemon: \(error)\n".utf8))
            return 2
        }
    }
}

final class GreeterCoordinator: Coordinator {
    private lazy var stack = NavigationStack(context: context)

    override func didStart() throws {
        let greeting = GreeterView { [unowned self] in
            try self.stack.push(Screen(name: "Wave", view: GreeterView(onWave: {}), owner: self, context: self.context))
        }
        try stack.push(Screen(name: "Greeting", view: greeting, owner: self, context: context))
        try context.window.setRoot(stack, owner: self)
    }
}

final class GreeterView: ScreenView {
    let onWave: () throws -> Void
    init(onWave: @escaping () throws -> Void) { self.onWave = onWave }
    var boundObjects: [any ScreenBound] { [] }
    func render() -> Element { .group([.text("Hello"), .button("wave", title: "Wave back")]) }
    func handle(_ action: UserAction) throws { try onWave() }
}
