#include "compute/linalg/reference.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace linalg {

std::vector<float> axpby_cpu(float a, const std::vector<float>& x, float b, const std::vector<float>& y) {
  std::vector<float> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) out[i] = a * x[i] + b * y[i];
  return out;
}

std::vector<float> mul_cpu(const std::vector<float>& x, const std::vector<float>& y) {
  std::vector<float> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) out[i] = x[i] * y[i];
  return out;
}

double dot_cpu(const std::vector<float>& x, const std::vector<float>& y) {
  double s = 0;
  for (size_t i = 0; i < x.size(); ++i) s += double(x[i]) * y[i];
  return s;
}

namespace {

// body(lo, hi) over [0, n) in equal slices on `threads` threads, the caller's taking the first.
// A row's terms are summed in the same order however the rows are sliced: the same result.
template <class Body>
void in_slices(size_t n, unsigned threads, Body body) {
  threads = std::max(1u, std::min<unsigned>(threads, unsigned(n / 4096 + 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(body, n * t / threads, n * (t + 1) / threads);
  body(size_t(0), n / threads);
  for (auto& th : pool) th.join();
}

template <class Term>
std::vector<double> banded_rows(const BandedMatrix& m, Term term, unsigned threads) {
  std::vector<double> out(m.n, 0.0);
  in_slices(m.n, threads, [&](size_t lo, size_t hi) {
    for (auto& [offset, d] : m.diagonals)
      for (size_t i = lo; i < hi; ++i) {
        int64_t j = (int64_t(i) + offset) % int64_t(m.n);
        if (j < 0) j += m.n;
        out[i] += term(double(d[i]), size_t(j));
      }
  });
  return out;
}

}  // namespace

std::vector<double> banded_cpu(const BandedMatrix& m, const std::vector<float>& v, float a, float b,
                               const std::vector<float>& vp, unsigned threads) {
  auto out = banded_rows(
      m, [&](double md, size_t j) { return md * v[j]; }, threads);
  for (uint32_t i = 0; i < m.n; ++i) out[i] = a * out[i] + (vp.empty() ? 0.0 : double(b) * vp[i]);
  return out;
}

std::vector<double> banded_abs_cpu(const BandedMatrix& m, const std::vector<float>& v) {
  return banded_rows(
      m, [&](double md, size_t j) { return std::fabs(md * v[j]); }, 1);
}

std::vector<double> dense_cpu(const DenseMatrix& m, const std::vector<float>& v, const std::vector<float>& vp) {
  std::vector<double> out(m.n, 0.0);
  for (uint32_t c = 0; c < m.n; ++c)
    for (uint32_t r = 0; r < m.n; ++r) out[r] += double(m.columns[size_t(c) * m.n + r]) * v[c];
  if (!vp.empty())
    for (uint32_t r = 0; r < m.n; ++r) out[r] += vp[r];
  return out;
}

std::vector<double> dense_abs_cpu(const DenseMatrix& m, const std::vector<float>& v) {
  std::vector<double> out(m.n, 0.0);
  for (uint32_t c = 0; c < m.n; ++c)
    for (uint32_t r = 0; r < m.n; ++r) out[r] += std::fabs(double(m.columns[size_t(c) * m.n + r]) * v[c]);
  return out;
}

std::vector<double> cg_cpu(const BandedMatrix& m, const std::vector<float>& b, double tol, uint32_t max_iter,
                           uint32_t* iterations, double* relative_residual, bool from_b, std::vector<double>* history,
                           unsigned threads) {
  size_t n = m.n;
  auto product = [&](const std::vector<double>& v, std::vector<double>& out) {
    std::fill(out.begin(), out.end(), 0.0);
    in_slices(n, threads, [&](size_t lo, size_t hi) {
      for (auto& [offset, diag] : m.diagonals)
        for (size_t i = lo; i < hi; ++i) {
          int64_t j = (int64_t(i) + offset) % int64_t(n);
          if (j < 0) j += int64_t(n);
          out[i] += double(diag[i]) * v[size_t(j)];
        }
    });
  };
  std::vector<double> x(n, 0.0), r(b.begin(), b.end()), q(n);
  if (from_b) {  // x0 = b, r0 = b − A·b
    x.assign(b.begin(), b.end());
    product(x, q);
    for (size_t i = 0; i < n; ++i) r[i] -= q[i];
  }
  std::vector<double> d = r;
  auto dot = [](const std::vector<double>& u, const std::vector<double>& w) {
    double s = 0;
    for (size_t i = 0; i < u.size(); ++i) s += u[i] * w[i];
    return s;
  };
  double bb = 0;
  for (float v : b) bb += double(v) * v;
  double rho = dot(r, r);
  uint32_t it = 0;
  if (history) history->assign(1, std::sqrt(rho / bb));
  while (it < max_iter && std::sqrt(rho / bb) > tol) {
    product(d, q);
    double alpha = rho / dot(d, q);
    for (size_t i = 0; i < n; ++i) x[i] += alpha * d[i], r[i] -= alpha * q[i];
    double rho_next = dot(r, r);
    for (size_t i = 0; i < n; ++i) d[i] = r[i] + rho_next / rho * d[i];
    rho = rho_next;
    ++it;
    if (history) history->push_back(std::sqrt(rho / bb));
  }
  if (iterations) *iterations = it;
  if (relative_residual) *relative_residual = std::sqrt(rho / bb);
  return x;
}

}  // namespace linalg
