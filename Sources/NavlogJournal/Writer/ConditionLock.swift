import Foundation

/// A pthread mutex with condition variables, for the writer's queue.
///
/// Hold the mutex with ``withLock(_:)``; ``wait(_:)``, ``signal(_:)`` and ``broadcast(_:)`` are
/// called from inside its body. Every pthread call is checked: a non-zero result means the lock
/// is misused or corrupt, which nothing could recover from, so it stops the process naming the
/// call and the code. In debug builds the mutex is error-checking, so locking it twice on one
/// thread or unlocking it from another traps (`EDEADLK`, `EPERM`) instead of hanging.
///
/// ```swift
/// let isFull = lock.withLock {
///     while queue.count >= capacity { lock.wait(spaceAvailable) }
///     queue.append(item)
///     return queue.count == batchSize
/// }
/// ```
///
/// `@unchecked Sendable`: the mutex and conditions are heap-allocated once, never moved, and
/// pthreads makes them safe to use from any thread; the state they guard is only touched while
/// the mutex is held.
final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let conditions: UnsafeMutablePointer<pthread_cond_t>
    private let conditionCount: Int

    /// Creates the mutex and `count` conditions that time out on the monotonic clock.
    init(conditions count: Int) {
        conditionCount = count
        conditions = .allocate(capacity: count)
        var mutexAttributes = pthread_mutexattr_t()
        Self.check(pthread_mutexattr_init(&mutexAttributes), "pthread_mutexattr_init")
        #if DEBUG
        Self.check(pthread_mutexattr_settype(&mutexAttributes, Int32(PTHREAD_MUTEX_ERRORCHECK)), "pthread_mutexattr_settype")
        #endif
        Self.check(pthread_mutex_init(mutex, &mutexAttributes), "pthread_mutex_init")
        Self.check(pthread_mutexattr_destroy(&mutexAttributes), "pthread_mutexattr_destroy")
        var conditionAttributes = pthread_condattr_t()
        Self.check(pthread_condattr_init(&conditionAttributes), "pthread_condattr_init")
        Self.check(pthread_condattr_setclock(&conditionAttributes, CLOCK_MONOTONIC), "pthread_condattr_setclock")
        for index in 0..<count {
            Self.check(pthread_cond_init(conditions + index, &conditionAttributes), "pthread_cond_init")
        }
        Self.check(pthread_condattr_destroy(&conditionAttributes), "pthread_condattr_destroy")
    }

    deinit {
        for index in 0..<conditionCount { Self.check(pthread_cond_destroy(conditions + index), "pthread_cond_destroy") }
        Self.check(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
        conditions.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex, and releases it however `body` returns.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        Self.check(pthread_mutex_lock(mutex), "pthread_mutex_lock")
        defer { Self.check(pthread_mutex_unlock(mutex), "pthread_mutex_unlock") }
        return try body()
    }

    /// Waits on condition `index`, releasing the mutex meanwhile; call it inside ``withLock(_:)``
    /// and in a loop over the awaited state, since a wait may return without a signal.
    func wait(_ index: Int) {
        Self.check(pthread_cond_wait(conditions + index, mutex), "pthread_cond_wait")
    }

    /// Waits on condition `index` until the monotonic clock reads `deadline` (ns) at the latest;
    /// call it inside ``withLock(_:)`` and in a loop, as ``wait(_:)``.
    func wait(_ index: Int, untilMonotonic deadline: UInt64) {
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        let code = pthread_cond_timedwait(conditions + index, mutex, &time)
        if code != ETIMEDOUT { Self.check(code, "pthread_cond_timedwait") }
    }

    /// Wakes one thread waiting on condition `index`.
    func signal(_ index: Int) {
        Self.check(pthread_cond_signal(conditions + index), "pthread_cond_signal")
    }

    /// Wakes every thread waiting on condition `index`.
    func broadcast(_ index: Int) {
        Self.check(pthread_cond_broadcast(conditions + index), "pthread_cond_broadcast")
    }

    /// Stops the process when a pthread call returned an error code (`fatalError`, whose
    /// message survives release builds, unlike `precondition`'s).
    private static func check(_ code: Int32, _ call: StaticString) {
        guard code != 0 else { return }
        fatalError("\(call) returned \(code) (\(String(cString: strerror(code)))): the journal writer's lock is misused or corrupt")
    }
}

/// Returns the monotonic clock in nanoseconds.
func monotonicNow() -> UInt64 {
    var time = timespec()
    if clock_gettime(CLOCK_MONOTONIC, &time) != 0 { fatalError("clock_gettime(CLOCK_MONOTONIC) failed (errno \(errno))") }
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
