// CPU references for the linear algebra operators; the GPU is tested against these.
#pragma once
#include "compute/linalg/matrix.h"

namespace linalg {

std::vector<float> axpby_cpu(float a, const std::vector<float>& x, float b, const std::vector<float>& y);
std::vector<float> mul_cpu(const std::vector<float>& x, const std::vector<float>& y);
double dot_cpu(const std::vector<float>& x, const std::vector<float>& y);  // double accumulation
// out = a·(M·v) + b·vp (vp may be empty), row sums in double; `threads`: the rows sliced among
// that many threads (the checks of big workloads; the timed reference runs on one), the same result.
std::vector<double> banded_cpu(const BandedMatrix& m, const std::vector<float>& v, float a = 1, float b = 0,
                               const std::vector<float>& vp = {}, unsigned threads = 1);
std::vector<double> dense_cpu(const DenseMatrix& m, const std::vector<float>& v, const std::vector<float>& vp = {});
// Per-row sum of |terms|: the scale of the rounding error bound of a row.
std::vector<double> banded_abs_cpu(const BandedMatrix& m, const std::vector<float>& v);
std::vector<double> dense_abs_cpu(const DenseMatrix& m, const std::vector<float>& v);

// Conjugate gradient in double from x = 0 (from_b: from x = b, as 'MGC SUR GPU'); returns x;
// iterations and final ||r|| / ||b|| out, and with `history` ||r_i|| / ||b|| for i = 0..iterations;
// `threads` slice its matrix products as banded_cpu's (the same result).
std::vector<double> cg_cpu(const BandedMatrix& m, const std::vector<float>& b, double tol, uint32_t max_iter,
                           uint32_t* iterations = nullptr, double* relative_residual = nullptr, bool from_b = false,
                           std::vector<double>* history = nullptr, unsigned threads = 1);

}  // namespace linalg
