import CSQLite

/// Memory SQLite sees as one of its structures (`sqlite3_vtab`, `sqlite3_vtab_cursor`) and the
/// extension as that structure followed by the Swift object it belongs to.
///
/// SQLite hands the structure's pointer back to every callback; ``owner(of:)`` finds the
/// object again. The object is retained until ``release(_:)``.
enum VirtualTableBox<Base, Owner: AnyObject> {
    /// Where the owner's pointer sits: after the structure, pointer-aligned.
    private static var ownerOffset: Int {
        let alignment = MemoryLayout<UnsafeRawPointer>.alignment
        return (MemoryLayout<Base>.size + alignment - 1) / alignment * alignment
    }

    /// Returns a zeroed structure followed by a retained `owner`.
    static func make(owner: Owner) -> UnsafeMutablePointer<Base> {
        let size = ownerOffset + MemoryLayout<UnsafeRawPointer>.size
        let raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: max(MemoryLayout<Base>.alignment, MemoryLayout<UnsafeRawPointer>.alignment))
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        raw.storeBytes(of: Unmanaged.passRetained(owner).toOpaque(), toByteOffset: ownerOffset, as: UnsafeMutableRawPointer.self)
        return raw.bindMemory(to: Base.self, capacity: 1)
    }

    /// The object `pointer` (from ``make(owner:)``) belongs to.
    static func owner(of pointer: UnsafeMutablePointer<Base>) -> Owner {
        let stored = UnsafeMutableRawPointer(pointer).load(fromByteOffset: ownerOffset, as: UnsafeMutableRawPointer.self)
        return Unmanaged<Owner>.fromOpaque(stored).takeUnretainedValue()
    }

    /// Runs `body` with the object `pointer` belongs to, neither retaining nor releasing it: the
    /// box holds it for as long as SQLite holds the pointer. For the callbacks SQLite makes on
    /// every row (`xNext`, `xEof`, `xColumn`), where a retain and release each cost more than
    /// the work.
    static func withOwner<Result>(of pointer: UnsafeMutablePointer<Base>, _ body: (Owner) throws -> Result) rethrows -> Result {
        let stored = UnsafeMutableRawPointer(pointer).load(fromByteOffset: ownerOffset, as: UnsafeMutableRawPointer.self)
        return try Unmanaged<Owner>.fromOpaque(stored)._withUnsafeGuaranteedRef(body)
    }

    /// Releases the owner and frees the memory.
    static func release(_ pointer: UnsafeMutablePointer<Base>) {
        let raw = UnsafeMutableRawPointer(pointer)
        Unmanaged<Owner>.fromOpaque(raw.load(fromByteOffset: ownerOffset, as: UnsafeMutableRawPointer.self)).release()
        raw.deallocate()
    }
}
