// The threads behind the cpu kernels' parallel loops.
//
// Why not pthreadpool's own dispatch: every pthreadpool_parallelize_* call waits until each worker
// thread has woken up and checked in, even a worker that finds nothing left to do, and idle
// workers spin for a long time before they sleep. On an idle machine that is cheap; on a loaded
// one (more runnable threads than cores) each of the hundreds of parallel loops in a model run
// waits for a descheduled worker to get a time slice, and the spinning workers take the slices
// that the caller needs: runs measured up to 10x slower than on one thread.
//
// Here the calling thread takes part and claims work from a shared counter, helpers join when
// they get to run, and the caller waits only for items a helper has actually claimed. A helper
// that is late costs nothing; an idle helper spins briefly, then sleeps.
#pragma once

#include <cstddef>

namespace tfjsi::cpu {

using WorkItemFn = void (*)(void* ctx, std::size_t begin, std::size_t end);

// Calls fn(ctx, b, e) over disjoint ranges covering [0, n), on the calling thread and on up to
// `helpers` other threads. Returns when every item is done. A call made from inside a running
// loop, or while another thread's loop holds the helpers, runs inline. fn must not throw.
void run_parallel(std::size_t helpers, std::size_t n, void* ctx, WorkItemFn fn);

}  // namespace tfjsi::cpu
