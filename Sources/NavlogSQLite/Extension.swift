import CSQLite

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
    let (code, message) = TableModule.register(on: connection)
    if let message { errorMessage?.pointee = makeSQLiteMessage(message) }
    return code
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
