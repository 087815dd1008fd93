// The mesh tables' loops on every core: body(begin, end) over [0, n) in contiguous chunks, one
// a thread, the calling thread taking the first; below `grain` items (or on one core) the caller
// runs it alone. Bodies write disjoint ranges; the first exception a chunk throws is rethrown.
#pragma once
#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace mesh {

template <class Body>
void parallel_for(size_t n, Body&& body, size_t grain = size_t(1) << 15) {
  size_t threads = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), (n + grain - 1) / grain);
  if (threads <= 1) {
    if (n) body(size_t(0), n);
    return;
  }
  std::vector<std::exception_ptr> failed(threads);
  std::vector<std::thread> pool;
  auto chunk = [&](size_t t) {
    try {
      body(n * t / threads, n * (t + 1) / threads);
    } catch (...) {
      failed[t] = std::current_exception();
    }
  };
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(chunk, t);
  chunk(0);
  for (auto& th : pool) th.join();
  for (auto& e : failed)
    if (e) std::rethrow_exception(e);
}

// [0, n) cut once into fixed ranges, one a core or fewer (at least `grain` items each), for the
// passes that must cut it the same way twice: each range's count, then each range's part of the
// output at the place the counts before it give.
struct Chunks {
  size_t n, count;
  explicit Chunks(size_t items, size_t grain = size_t(1) << 15)
      : n(items), count(std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), items / grain))) {}
  // body(k, from, to) for every range k, on every core.
  template <class Body>
  void each(Body&& body) const {
    parallel_for(
        count,
        [&](size_t a, size_t b) {
          for (size_t k = a; k < b; ++k) body(k, n * k / count, n * (k + 1) / count);
        },
        1);
  }
};

}  // namespace mesh
