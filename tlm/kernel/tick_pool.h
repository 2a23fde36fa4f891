// -gtlm_threads: a persistent pool that runs the ticks of one clock edge's units on N host
// threads (the calling thread is one of them), with one barrier per parallel edge.
//
// Items are claimed in index order. An item may call wait_turn(i) before touching state it
// shares with other items: it returns once items 0..i-1 are finished, so those accesses happen
// in index order whatever the thread count (the sequential order). Claiming in order makes
// this deadlock-free: every lower item is finished or running on a thread that waits only on
// items lower still.
#ifndef GTLM_TLM_TICK_POOL_H
#define GTLM_TLM_TICK_POOL_H

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace gtlm {

class TickPool {
public:
    explicit TickPool(int threads); // threads >= 2: threads - 1 workers are started here
    ~TickPool();
    TickPool(const TickPool &) = delete;
    TickPool &operator=(const TickPool &) = delete;

    int threads() const { return static_cast<int>(workers_.size()) + 1; }
    // Runs fn(i) for i in [0, n) on every thread; returns when all n are done.
    void run(size_t n, const std::function<void(size_t)> &fn);
    // Inside fn(i): waits until items 0..i-1 are done.
    void wait_turn(size_t i) const;

private:
    void work(); // a worker's loop
    // Claims and runs items of batch gen until none is left (or a newer batch started).
    void drain(uint64_t gen);

    std::vector<std::thread> workers_;
    std::mutex mu_;
    std::condition_variable cv_;
    bool stop_ = false; // under mu_
    // The current batch: claim_ holds its generation (high 32 bits) and the next item to claim, so
    // a worker that arrives late never claims an item of a newer batch with an older fn.
    std::atomic<const std::function<void(size_t)> *> fn_{nullptr};
    std::atomic<size_t> n_{0};
    std::atomic<uint64_t> claim_{0};
    std::atomic<size_t> finished_{0}; // items of the current batch done
    // done_[i] set once item i of the current batch is done (wait_turn).
    std::unique_ptr<std::atomic<uint8_t>[]> done_;
    size_t done_cap_ = 0;
    uint64_t gen_ = 0; // the calling thread's batch counter
};

} // namespace gtlm

#endif
