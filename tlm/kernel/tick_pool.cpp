#include "kernel/tick_pool.h"

namespace gtlm {

namespace {
constexpr int kSpins = 4000; // checks before a worker sleeps on the condition variable
constexpr uint64_t kIndexMask = 0xffffffffu; // the claim word's item index (its closed value)
} // namespace

TickPool::TickPool(int threads)
{
    for (int t = 1; t < threads; t++) workers_.emplace_back([this] { work(); });
}

TickPool::~TickPool()
{
    {
        std::lock_guard<std::mutex> lk(mu_);
        stop_ = true;
    }
    cv_.notify_all();
    for (auto &w : workers_) w.join();
}

void TickPool::run(size_t n, const std::function<void(size_t)> &fn)
{
    // Close the previous batch first: a worker that read its claim word before this point and
    // then the new fn_ / n_ would otherwise claim an item of the new batch with a stale index
    // (seen by ThreadSanitizer: an SM ticked twice). Sequentially consistent operations order the
    // close before the new fn_ and n_ for every thread, so such a worker's exchange fails.
    uint64_t old = claim_.load(std::memory_order_relaxed);
    claim_.store((old & ~kIndexMask) | kIndexMask, std::memory_order_seq_cst);
    if (n > done_cap_) {
        done_cap_ = n * 2;
        done_.reset(new std::atomic<uint8_t>[done_cap_]);
    }
    for (size_t i = 0; i < n; i++) done_[i].store(0, std::memory_order_relaxed);
    finished_.store(0, std::memory_order_relaxed);
    fn_.store(&fn, std::memory_order_seq_cst);
    n_.store(n, std::memory_order_seq_cst);
    uint64_t gen = gen_++ % 0xffffffffu + 1; // 1..2^32-1: 0 is 'no batch yet'
    claim_.store(gen << 32, std::memory_order_seq_cst); // publishes everything above
    { std::lock_guard<std::mutex> lk(mu_); } // a worker checking claim_ under mu_ is waiting now
    cv_.notify_all();
    drain(gen);
    while (finished_.load(std::memory_order_acquire) < n) std::this_thread::yield();
}

void TickPool::drain(uint64_t gen)
{
    for (;;) {
        uint64_t c = claim_.load(std::memory_order_seq_cst);
        if ((c >> 32) != gen) return;
        // fn_ and n_ are this batch's, or a newer one's: then the batch was closed before they
        // were written, so the exchange below fails and they are not used.
        const std::function<void(size_t)> *fn = fn_.load(std::memory_order_seq_cst);
        size_t n = n_.load(std::memory_order_seq_cst);
        size_t i = static_cast<size_t>(c & kIndexMask);
        if (i >= n) return; // every item claimed, or the batch closed
        if (!claim_.compare_exchange_weak(c, c + 1, std::memory_order_seq_cst)) continue;
        (*fn)(i);
        done_[i].store(1, std::memory_order_release);
        finished_.fetch_add(1, std::memory_order_acq_rel);
    }
}

void TickPool::wait_turn(size_t i) const
{
    for (size_t p = 0; p < i; p++) {
        int spins = 0;
        while (!done_[p].load(std::memory_order_acquire))
            if (++spins > 64) std::this_thread::yield();
    }
}

void TickPool::work()
{
    uint64_t seen = 0; // the last batch's generation
    for (;;) {
        uint64_t gen = seen;
        for (int s = 0; s < kSpins && gen == seen; s++) { // a new batch usually follows within microseconds
            gen = claim_.load(std::memory_order_acquire) >> 32;
            if (s > 64) std::this_thread::yield();
        }
        if (gen == seen) {
            std::unique_lock<std::mutex> lk(mu_);
            cv_.wait(lk, [&] { return stop_ || (claim_.load(std::memory_order_acquire) >> 32) != seen; });
            if (stop_) return;
            gen = claim_.load(std::memory_order_acquire) >> 32;
        }
        seen = gen;
        drain(gen);
    }
}

} // namespace gtlm
