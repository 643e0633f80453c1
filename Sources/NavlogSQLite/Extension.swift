import CSQLite
import Glibc

// The entry point `sqlite3` calls on `.load .build/release/libNavlogSQLite`, and Python's
// `sqlite3` on `load_extension`: see <https://www.sqlite.org/loadext.html>.
//
// How the extension reaches SQLite's functions: it calls `sqlite3_*` directly, linked against
// the shared libsqlite3.so.0, instead of through the `sqlite3_api_routines` table the host
// passes in (`SQLITE_EXTENSION_INIT2`). On Linux a loadable extension is only ever loaded by a
// program that is itself linked to libsqlite3.so.0 (Debian's `sqlite3` CLI, Python's
// `_sqlite3`; `ldd` shows both), so the dynamic linker resolves the extension's `sqlite3_*`
// to that same library, and the connection handle it is given belongs to it. A host with a
// statically linked SQLite of its own would need the routines table instead: a small C shim
// with `SQLITE_EXTENSION_INIT1/2`.

/// Registers the eponymous virtual tables on connection `connection`; SQLite calls it when
/// the library is loaded.
///
/// Returns `SQLITE_OK`, or an error code with `errorMessage` set (from `sqlite3_malloc`, as
/// SQLite frees it).
@_cdecl("sqlite3_navlogsqlite_init")
public func navlogSQLiteInit(
    _ connection: OpaquePointer?, _ errorMessage: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ routines: OpaquePointer?
) -> Int32 {
    guard let connection else { return SQLITE_MISUSE }
    keepLoaded()
    let (code, message) = TableModule.register(on: connection)
    if let message { errorMessage?.pointee = makeSQLiteMessage(message) }
    return code
}

/// Keeps this library mapped for the rest of the process (`RTLD_NODELETE`).
///
/// SQLite `dlclose`s an extension when the connection that loaded it closes. The Swift runtime,
/// which stays loaded, keeps pointers into the library's type metadata and conformance
/// records, so the next load in the same process (Python opening a second connection) crashed
/// on them. Opening the library once more with `RTLD_NODELETE`, never closed, pins it.
private func keepLoaded() {
    // The file mapped at this library's header, from /proc/self/maps (glibc's dladdr needs
    // _GNU_SOURCE, which Swift's Glibc module does not define). Read with getline: the file's
    // size is 0 to stat, so whole-file readers find it empty.
    let address = UInt(bitPattern: #dsohandle)
    guard let maps = fopen("/proc/self/maps", "r") else { return }
    defer { fclose(maps) }
    var buffer: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(buffer) }
    while getline(&buffer, &capacity, maps) > 0, let buffer {
        let fields = String(cString: buffer).split(whereSeparator: { $0 == " " || $0 == "\n" })
        let bounds = fields.first?.split(separator: "-").compactMap { UInt($0, radix: 16) } ?? []
        guard fields.count >= 6, bounds.count == 2, (bounds[0]..<bounds[1]).contains(address) else { continue }
        _ = dlopen(fields[5...].joined(separator: " "), RTLD_NOW | RTLD_NODELETE)
        return
    }
}

/// Returns `text` copied into memory from `sqlite3_malloc`, which SQLite frees once it has
/// reported the message (`sqlite3_vtab.zErrMsg`, `pzErrMsg`).
func makeSQLiteMessage(_ text: String) -> UnsafeMutablePointer<CChar>? {
    let bytes = Array(text.utf8)
    guard let memory = sqlite3_malloc64(UInt64(bytes.count + 1)) else { return nil }
    let characters = memory.bindMemory(to: CChar.self, capacity: bytes.count + 1)
    for (index, byte) in bytes.enumerated() { characters[index] = CChar(bitPattern: byte) }
    characters[bytes.count] = 0
    return characters
}
