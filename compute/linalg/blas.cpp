#include "compute/linalg/blas.h"

#include "compute/io/platform.h"
#include "compute/linalg/workload.h"
#include "compute/measure/timer.h"

#include <cblas.h>  // the declarations only: the library is loaded when first used

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

namespace linalg {

namespace {

// OpenBLAS is loaded when a BLAS reference is first made (the linalg bench's CPU columns), not
// when vklab starts: at load time its threads spin on sched_yield for a while, waiting for work
// (about 0.15 CPU-seconds every start on a 2-core machine, every lab and every test paying it).
// clang-format off
#define VKLAB_BLAS_FUNCTIONS(X)                                                                             \
  X(cblas_saxpy) X(cblas_sdot) X(cblas_saxpby) X(cblas_ssbmv) X(cblas_snrm2) X(cblas_ismax) X(cblas_ismin) \
  X(cblas_sgemv) X(cblas_sgbmv)                                                                             \
  X(openblas_set_num_threads) X(openblas_get_config) X(openblas_get_corename) X(openblas_get_num_procs)
// clang-format on

struct Blas {
#define VKLAB_BLAS_POINTER(name) decltype(&::name) name = nullptr;
  VKLAB_BLAS_FUNCTIONS(VKLAB_BLAS_POINTER)
#undef VKLAB_BLAS_POINTER
};

Blas load_blas() {
  std::string why;
  auto lib = platform::Library::open({{"libopenblas.so.0"}, {"libopenblas.dll", "openblas.dll"}}, false, &why);
  if (!lib) throw std::runtime_error("the BLAS reference needs OpenBLAS (Debian: libopenblas0): " + why);
  Blas b;
  const std::string file = lib->name();
#define VKLAB_BLAS_LOAD(name)                                             \
  if (!(b.name = reinterpret_cast<decltype(b.name)>(lib->symbol(#name)))) \
    throw std::runtime_error("the BLAS reference: " + file + " has no " #name);
  VKLAB_BLAS_FUNCTIONS(VKLAB_BLAS_LOAD)
#undef VKLAB_BLAS_LOAD
  return b;  // loaded for the process's life
}

const Blas& blas() {
  static const Blas b = load_blas();  // a throw leaves it to be tried again next time
  return b;
}

}  // namespace

struct BlasReference::State {
  Op op;
  int n = 0;
  std::vector<float> x, y, out;  // out: y's copy where BLAS updates in place
  // band: BLAS's band storage (column-major, lda = kl + ku + 1); CG: the diagonals by offset
  int kl = 0, ku = 0;
  std::vector<float> band;
  const BandedMatrix* banded = nullptr;
  const DenseMatrix* dense = nullptr;
  std::vector<float> r, d, q;  // CG's vectors (x is out)
  float rho = 0;
  int threads = 1;
};

BlasReference::BlasReference(const Workload& w) : s_(std::make_unique<State>()) {
  auto& s = *s_;
  s.op = w.config().op;
  s.n = int(w.n());
  s.x = w.x_values();
  s.y = w.y_values();
  switch (s.op) {
    case Op::Axpby:
      s.out = s.y;
      break;
    case Op::Dense:
      s.out = s.y;
      s.dense = &w.dense();
      break;
    case Op::Product:
      s.out.assign(size_t(s.n), 0.0f);
      break;
    case Op::Banded: {
      auto& m = w.banded();
      s.kl = std::max(0, -m.diagonals.begin()->first);
      s.ku = std::max(0, m.diagonals.rbegin()->first);
      int lda = s.kl + s.ku + 1;
      s.band.assign(size_t(lda) * size_t(s.n), 0.0f);
      // M[i][i + o] sits at band[(ku - o) + (i + o)·lda]: by columns j = i + o, a range a thread
      std::vector<std::thread> pool;
      const int threads = int(std::clamp(s.n >> 20, 1, int(std::max(1u, std::thread::hardware_concurrency()))));
      for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, from = int(int64_t(s.n) * t / threads), to = int(int64_t(s.n) * (t + 1) / threads)] {
          for (auto& [o, diag] : m.diagonals)
            for (int j = std::max(from, o); j < std::min(to, s.n + o); ++j)
              s.band[size_t(s.ku - o) + size_t(j) * size_t(lda)] = diag[size_t(j - o)];
        });
      for (auto& th : pool) th.join();
      s.out.assign(size_t(s.n), 0.0f);
      break;
    }
    case Op::Cg:  // from the workload's start: x = 0 (r = d = b) or x = b (r = d = b − A·b)
      s.banded = &w.banded();
      s.out.assign(size_t(s.n), 0.0f);
      s.r = s.y;
      s.q.assign(size_t(s.n), 0.0f);
      if (w.cg_start() == CgStart::RightHandSide) {
        s.out = s.y;
        band_product(s.y);
        blas().cblas_saxpy(s.n, -1.0f, s.q.data(), 1, s.r.data(), 1);
      }
      s.d = s.r;
      s.rho = blas().cblas_sdot(s.n, s.r.data(), 1, s.r.data(), 1);
      break;
    default:
      break;
  }
  set_threads(1);
}

BlasReference::~BlasReference() = default;

std::string BlasReference::calls() const {
  switch (s_->op) {
    case Op::Axpby:
      return "cblas_saxpby";
    case Op::Product:
      return "cblas_ssbmv (a diagonal matrix: k = 0)";
    case Op::Dot:
      return "cblas_sdot";
    case Op::Norm:
      return "cblas_snrm2";
    case Op::Max:
      return "cblas_ismax (OpenBLAS's extension: the index of the largest value)";
    case Op::Min:
      return "cblas_ismin (OpenBLAS's extension: the index of the smallest value)";
    case Op::Banded:
      return "cblas_sgbmv (kl " + std::to_string(s_->kl) + ", ku " + std::to_string(s_->ku) + ")";
    case Op::Dense:
      return "cblas_sgemv";
    case Op::Cg:
      return "A d as one cblas_ssbmv (k = 0) per diagonal, 2 cblas_sdot, 2 cblas_saxpy, 1 cblas_saxpby";
  }
  return "";
}

// CG's q = A v, diagonal by diagonal: q[i] += diag[i]·v[i + o] where i + o stays inside
// (the Laplacian's diagonals are zero where they would wrap).
void BlasReference::band_product(const std::vector<float>& v) {
  auto& s = *s_;
  std::fill(s.q.begin(), s.q.end(), 0.0f);
  for (auto& [o, diag] : s.banded->diagonals) {
    int first = std::max(0, -o), count = s.n - std::abs(o);
    blas().cblas_ssbmv(CblasColMajor, CblasUpper, count, 0, 1.0f, diag.data() + first, 1, v.data() + first + o, 1, 1.0f,
                       s.q.data() + first, 1);
  }
}

std::vector<float> BlasReference::run() {
  auto& s = *s_;
  const int n = s.n;
  switch (s.op) {
    case Op::Axpby:
      blas().cblas_saxpby(n, 1.5f, s.x.data(), 1, -0.5f, s.out.data(), 1);
      return s.out;
    case Op::Product:
      blas().cblas_ssbmv(CblasColMajor, CblasUpper, n, 0, 1.0f, s.x.data(), 1, s.y.data(), 1, 0.0f, s.out.data(), 1);
      return s.out;
    case Op::Dot:
      return {blas().cblas_sdot(n, s.x.data(), 1, s.y.data(), 1)};
    case Op::Norm:
      return {blas().cblas_snrm2(n, s.x.data(), 1)};
    case Op::Max:
      return {s.x[blas().cblas_ismax(n, s.x.data(), 1)]};
    case Op::Min:
      return {s.x[blas().cblas_ismin(n, s.x.data(), 1)]};
    case Op::Banded: {
      std::vector<std::thread> workers;
      for (int t = 1; t < s.threads; ++t)
        workers.emplace_back(
            [this, t, n] { band_rows(int(int64_t(n) * t / s_->threads), int(int64_t(n) * (t + 1) / s_->threads)); });
      band_rows(0, int(int64_t(n) / s.threads));
      for (auto& w : workers) w.join();
      return s.out;
    }
    case Op::Dense:
      blas().cblas_sgemv(CblasColMajor, CblasNoTrans, n, n, 1.0f, s.dense->columns.data(), n, s.x.data(), 1, 1.0f,
                         s.out.data(), 1);
      return s.out;
    case Op::Cg: {
      band_product(s.d);
      float alpha = s.rho / blas().cblas_sdot(n, s.d.data(), 1, s.q.data(), 1);
      blas().cblas_saxpy(n, alpha, s.d.data(), 1, s.out.data(), 1);
      blas().cblas_saxpy(n, -alpha, s.q.data(), 1, s.r.data(), 1);
      float rho_next = blas().cblas_sdot(n, s.r.data(), 1, s.r.data(), 1);
      blas().cblas_saxpby(n, 1.0f, s.r.data(), 1, rho_next / s.rho, s.d.data(), 1);
      s.rho = rho_next;
      return s.out;
    }
  }
  return {};
}

void BlasReference::set_threads(int threads) {
  s_->threads = s_->op == Op::Banded ? std::max(1, threads) : 1;
  blas().openblas_set_num_threads(s_->op == Op::Banded ? 1 : threads);
}

// Rows [r0, r1) of the band use columns [c0, c1): with its base moved to column c0, the block is
// a band of kl - (r0 - c0) sub- and ku + (r0 - c0) super-diagonals in the same storage.
void BlasReference::band_rows(int r0, int r1) {
  auto& s = *s_;
  if (r1 <= r0) return;
  const int lda = s.kl + s.ku + 1, c0 = std::max(0, r0 - s.kl), c1 = std::min(s.n, r1 + s.ku), shift = r0 - c0;
  blas().cblas_sgbmv(CblasColMajor, CblasNoTrans, r1 - r0, c1 - c0, s.kl - shift, s.ku + shift, 1.0f,
                     s.band.data() + size_t(c0) * size_t(lda), lda, s.x.data() + c0, 1, 0.0f, s.out.data() + r0, 1);
}

double BlasReference::max_relative_difference(const std::vector<float>& blas,
                                              const std::vector<double>& reference) const {
  if (blas.size() != reference.size()) return NAN;
  size_t first = 0, last = blas.size();
  if (s_->op == Op::Banded) first = size_t(s_->kl), last -= size_t(s_->ku);
  double err = 0, scale = 0;
  for (size_t i = first; i < last; ++i) {
    err = std::max(err, std::fabs(blas[i] - reference[i]));
    scale = std::max(scale, std::fabs(reference[i]));
  }
  return err / std::max(scale, 1e-30);
}

BlasTiming time_blas(const Workload& w, int repeats, const gpu::BenchOptions& keep, const std::string& key) {
  BlasTiming t;
  auto t0 = std::chrono::steady_clock::now();
  auto lap = [&] {
    auto now = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(now - std::exchange(t0, now)).count();
  };
  BlasReference ref(w);
  t.build_s = lap();
  t.calls = ref.calls();
  t.library =
      std::string(blas().openblas_get_config()) + ", core " + blas().openblas_get_corename();  // "OpenBLAS 0.3.21 ..."
  t.max_rel_diff = ref.max_relative_difference(ref.run(), w.cpu_values());
  t.check_s = lap();
  t.threads = blas().openblas_get_num_procs();
  auto median_ms = [&](int threads) {
    return keep.cpu_ms(key + "/openblas-" + (threads == 1 ? std::string("1") : "all"), [&] {
      ref.set_threads(threads);
      return gpu::median_wall_ms([&] { ref.run(); }, repeats);
    });
  };
  t.ms_one_thread = median_ms(1);
  t.ms_all_threads = median_ms(t.threads);
  ref.set_threads(1);
  t.time_s = lap();
  return t;
}

}  // namespace linalg
