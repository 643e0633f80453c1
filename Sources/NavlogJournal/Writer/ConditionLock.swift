import Foundation

/// A pthread mutex with condition variables, for the writer's queue.
///
/// `@unchecked Sendable`: the mutex and conditions are heap-allocated once, never moved, and
/// pthreads makes them safe to use from any thread; the state they guard is only touched while
/// the mutex is held.
final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let conditions: UnsafeMutablePointer<pthread_cond_t>
    private let conditionCount: Int

    init(conditions count: Int) {
        conditionCount = count
        conditions = .allocate(capacity: count)
        pthread_mutex_init(mutex, nil)
        for index in 0..<count {
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(conditions + index, &attributes)
            pthread_condattr_destroy(&attributes)
        }
    }

    deinit {
        for index in 0..<conditionCount { pthread_cond_destroy(conditions + index) }
        pthread_mutex_destroy(mutex)
        conditions.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits on condition `index`; the mutex must be held.
    func wait(_ index: Int) {
        pthread_cond_wait(conditions + index, mutex)
    }

    /// Waits on condition `index` until the monotonic clock reads `deadline` (ns); the mutex must be held.
    func wait(_ index: Int, untilMonotonic deadline: UInt64) {
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        pthread_cond_timedwait(conditions + index, mutex, &time)
    }

    func signal(_ index: Int) { pthread_cond_signal(conditions + index) }

    func broadcast(_ index: Int) { pthread_cond_broadcast(conditions + index) }
}

/// Returns the monotonic clock in nanoseconds.
func monotonicNow() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
