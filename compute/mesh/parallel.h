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

}  // namespace mesh
