#include "compute/linalg/workload.h"

#include "compute/linalg/fields.h"

#include "compute/linalg/reference.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>
#include <thread>

namespace linalg {

namespace {
constexpr uint32_t kSlot = Workload::scalar_slot();  // where dot, norm, max and min leave their result

// sign 0: either sign at random; -1, +1: all of that sign.
std::vector<float> random_nonzero(uint32_t n, uint32_t seed, int sign = 0) {
  std::vector<float> v(n);
  auto fill = [&](size_t from, size_t to, uint32_t s) {
    std::mt19937 rng(s);
    std::uniform_real_distribution<float> u(0.5f, 1.5f);
    for (size_t i = from; i < to; ++i) {
      const float x = (rng() & 1 ? 1.0f : -1.0f) * u(rng);
      v[i] = sign != 0 ? float(sign) * std::fabs(x) : x;
    }
  };
  if (n < (1u << 22)) {
    fill(0, n, seed);
    return v;
  }
  // Four million values and more (the bench's largest sizes): blocks of 2^20 drawn on every core,
  // each from a generator seeded from `seed` and the block's place (the same values every run).
  const size_t blocks = (size_t(n) + (1u << 20) - 1) >> 20;
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::max(1u, std::thread::hardware_concurrency()); ++t)
    pool.emplace_back([&] {
      for (size_t b; (b = next++) < blocks;)
        fill(b << 20, std::min<size_t>(n, (b + 1) << 20), seed * 7919u + 104729u * uint32_t(b + 1));
    });
  for (auto& t : pool) t.join();
  return v;
}
}  // namespace

const std::vector<std::string>& op_names() {
  static const std::vector<std::string> names = {"axpby", "product", "dot",   "norm", "max",
                                                 "min",   "banded",  "dense", "cg"};
  return names;
}

Op op_from_name(const std::string& name) {
  auto& names = op_names();
  auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) throw std::invalid_argument("unknown operator '" + name + "'");
  return Op(it - names.begin());
}

const std::vector<std::string>& cg_form_names() {
  static const std::vector<std::string> names = {"banded", "one-dispatch", "pipelined"};
  return names;
}

namespace {
// The sizes against the device's limits, before a byte is generated on the host.
void require_fits(const gpu::Context& ctx, const WorkloadConfig& c) {
  uint64_t n = c.op == Op::Dense ? c.dense_n : uint64_t(c.side) * c.side * 4, vec = 4 * ((n + 3) / 4 * 4);
  std::string what = "linalg " + op_names()[size_t(c.op)] +
                     (c.op == Op::Dense ? " dense_n " + std::to_string(c.dense_n) : " side " + std::to_string(c.side));
  gpu::require_buffer(ctx, vec, what);
  uint64_t matrix = c.op == Op::Banded  ? c.diagonals * vec
                    : c.op == Op::Cg    ? (c.cg_form == CgForm::Banded ? 5 * vec : 0)
                    : c.op == Op::Dense ? n * n * 4
                                        : 0;
  if (matrix && (c.op == Op::Dense || c.layout == Layout::Buffer)) gpu::require_buffer(ctx, matrix, what);
  gpu::require_memory(ctx, matrix + 6 * vec, what);
}
}  // namespace

Workload::Workload(gpu::Context& ctx, const WorkloadConfig& c) : ctx_(ctx), config_(c) {
  require_fits(ctx, c);
  ops_ = std::make_unique<Ops>(ctx, c.layout);
  if (c.op == Op::Cg && c.cg_form != CgForm::Banded) {
    const std::string form = "cg_form=" + cg_form_names()[size_t(c.cg_form)];
    if (c.variant != Variant::Modern)
      throw std::invalid_argument(form +
                                  " is a modern iteration: it needs variant=modern (the thesis's 'MGC SUR GPU' "
                                  "stores A as diagonals: cg_form=banded)");
    if (c.frac_index) throw std::invalid_argument(form + " applies A without a banded product: it needs index=integer");
  }
  if (c.upload_matrix && !(c.op == Op::Banded || (c.op == Op::Cg && c.cg_form == CgForm::Banded)))
    throw std::invalid_argument(
        "uploading the matrix each application is for a banded matrix: operator banded, or cg with cg_form=banded");
  if (c.frac_index) {
    if (c.op != Op::Banded && c.op != Op::Cg)
      throw std::invalid_argument("the thesis's index arithmetic belongs to the banded product (banded, cg)");
    ops_->set_frac_index(true);  // refuses the buffer layout
  }
  n_ = c.op == Op::Dense ? c.dense_n : c.side * c.side * 4;
  double vec = 16.0 * ((n_ + 3) / 4);
  // Operand k: a field on the drawing grid (cropped to n values) or random, non-zero.
  auto operand = [&](uint32_t k) {
    if (!c.fields) return random_nonzero(n_, c.seed + k + (c.op == Op::Banded || c.op == Op::Dense), c.sign);
    uint32_t w = grid_width(), h = (n_ + w - 1) / w;
    auto f = grid_field(w, h, k == 0 ? "spots" : "gaussian", c.seed + k);
    f.resize(n_);
    return f;
  };
  auto vector = [&](const std::vector<float>& values) {
    auto v = std::make_unique<Vec>(ctx, uint32_t(values.size()), c.layout);
    v->upload(values);
    return v;
  };
  switch (c.op) {
    case Op::Axpby:
    case Op::Product:
    case Op::Dot:
    case Op::Norm:
      xs_ = operand(0);
      ys_ = operand(1);
      x_ = vector(xs_);
      y_ = vector(ys_);
      out_ = std::make_unique<Vec>(ctx, n_, c.layout);
      bytes_ = c.op == Op::Norm ? vec : (c.op == Op::Dot ? 2 * vec : 3 * vec);
      flops_ = (c.op == Op::Axpby ? 3.0 : c.op == Op::Product ? 1.0 : 2.0) * n_;
      break;
    case Op::Max:
    case Op::Min:
      xs_ = operand(0);
      x_ = vector(xs_);
      bytes_ = vec;       // the vector read once (the thesis's later passes read a third more)
      flops_ = n_ - 1.0;  // one comparison a value
      break;
    case Op::Banded:
      banded_ = random_band(n_, int(c.diagonals), c.seed);
      if (c.fields)
        for (auto& [offset, d] : banded_.diagonals) std::fill(d.begin(), d.end(), 1.0f / float(c.diagonals));
      gpu_banded_ = std::make_unique<GpuBanded>(ctx, banded_, c.layout, c.upload_matrix);
      xs_ = operand(0);
      x_ = vector(xs_);
      out_ = std::make_unique<Vec>(ctx, n_, c.layout);
      bytes_ = (c.diagonals + 2) * vec;
      flops_ = 2.0 * c.diagonals * n_;
      break;
    case Op::Dense:
      dense_ = random_dense(n_, c.seed);
      gpu_dense_ = std::make_unique<GpuDense>(ctx, dense_);
      xs_ = operand(0);
      ys_ = operand(1);
      x_ = vector(xs_);
      y_ = vector(ys_);
      out_ = std::make_unique<Vec>(ctx, n_, c.layout);
      bytes_ = double(n_) * n_ * 4 + 3 * vec;
      flops_ = 2.0 * n_ * n_ + n_;
      break;
    case Op::Cg: {
      uint32_t g = 2 * c.side;
      banded_ = implicit_laplacian(g, g, c.cg_c);  // the CPU references' copy whatever the form
      ys_ = grid_field(g, g, "spots", c.seed);     // the right-hand side: hot spots
      for (float y : ys_) bb_ += double(y) * y;
      y_ = vector(ys_);
      out_ = std::make_unique<Vec>(ctx, n_, c.layout);
      if (c.cg_form == CgForm::Banded) {
        gpu_banded_ = std::make_unique<GpuBanded>(ctx, banded_, c.layout, c.upload_matrix);
        cg_ = std::make_unique<Cg>(*ops_, *gpu_banded_);
      } else {  // the same matrix: diagonal 1 + 4c, the 4 neighbours -c
        Stencil5 a{g, g, 1.0f + 4.0f * c.cg_c, -c.cg_c};
        cg_ = std::make_unique<Cg>(*ops_, a,
                                   c.cg_form == CgForm::Pipelined ? StencilCg::Pipelined : StencilCg::OneDispatch);
      }
      ctx.submit_now([&](VkCommandBuffer cmd) { record_restart(cmd); });
      bytes_ = cg_->bytes_per_iteration(c.variant);
      flops_ = cg_->flops_per_iteration(c.variant);
      break;
    }
  }
}

std::string workload_name(const WorkloadConfig& c) {
  std::string op = op_names()[size_t(c.op)];
  if (c.op == Op::Banded) op += std::to_string(c.diagonals);
  if (c.frac_index) op += ".frac";
  if (c.upload_matrix) op += ".upload";
  if (c.op == Op::Dot && c.float_float) return op + ".float-float";
  if ((c.op == Op::Max || c.op == Op::Min) && c.zero_pad) op += ".zero-pad";
  if (c.op == Op::Cg && c.cg_form != CgForm::Banded) return op + "." + cg_form_names()[size_t(c.cg_form)];
  return op + "." + variant_name(c.variant);
}

std::string Workload::name() const { return workload_name(config_); }

std::string Workload::size() const {
  if (config_.op == Op::Dense) return std::to_string(n_) + "x" + std::to_string(n_);
  if (config_.op == Op::Cg) return std::to_string(2 * config_.side) + "^2 grid";
  return std::to_string(config_.side) + "x" + std::to_string(config_.side) + "x4";
}

void Workload::record(VkCommandBuffer cmd, gpu::Profiler* prof) {
  Variant v = config_.variant;
  if (user_ && config_.op != Op::Cg) return record_user(cmd, prof);
  switch (config_.op) {
    case Op::Axpby:
      ops_->axpby(cmd, {1.5f}, *x_, {-0.5f}, *y_, *out_);
      break;
    case Op::Product:
      ops_->mul(cmd, *x_, *y_, *out_);
      break;
    case Op::Dot:
      if (config_.float_float)
        ops_->dot_ff(cmd, *x_, *y_, kSlot);
      else
        ops_->dot(cmd, v, *x_, *y_, kSlot);
      break;
    case Op::Norm:
      ops_->dot(cmd, v, *x_, *x_, kSlot, true);
      break;
    case Op::Max:
    case Op::Min:
      ops_->extreme(cmd, v, config_.op == Op::Max ? Extreme::Max : Extreme::Min, *x_, kSlot, config_.zero_pad);
      break;
    case Op::Banded:
      if (config_.upload_matrix) gpu_banded_->record_upload(cmd);
      ops_->banded(cmd, v, *gpu_banded_, *x_, nullptr, *out_, 1.0f, 0.0f);
      break;
    case Op::Dense:
      ops_->dense(cmd, v, *gpu_dense_, *x_, y_.get(), *out_);
      break;
    case Op::Cg:
      if (cg_iter_ + 2 >= ops_->scalars().history_capacity()) record_restart(cmd);
      if (config_.upload_matrix) gpu_banded_->record_upload(cmd);
      cg_->record_iteration(cmd, v, cg_iter_++, *out_, prof);
      break;
  }
}

void Workload::record_restart(VkCommandBuffer cmd) {
  if (config_.op != Op::Cg) return;
  cg_->record_init(cmd, config_.variant, *y_, *out_, cg_start());
  cg_iter_ = 0;
}

void Workload::run_cpu(unsigned threads) {
  switch (config_.op) {
    case Op::Axpby: {
      auto r = axpby_cpu(1.5f, xs_, -0.5f, ys_);
      cpu_result_.assign(r.begin(), r.end());
      break;
    }
    case Op::Product: {
      auto r = mul_cpu(xs_, ys_);
      cpu_result_.assign(r.begin(), r.end());
      break;
    }
    case Op::Dot:
      cpu_scalar_ = dot_cpu(xs_, ys_);
      break;
    case Op::Norm:
      cpu_scalar_ = std::sqrt(dot_cpu(xs_, xs_));
      break;
    case Op::Max:
    case Op::Min:  // the right answer, whatever the padding: zero_pad shows the thesis's mistake as an error
      cpu_scalar_ = extreme_cpu(config_.op == Op::Max ? Extreme::Max : Extreme::Min, xs_);
      break;
    case Op::Banded:
      cpu_result_ = banded_cpu(banded_, xs_, 1, 0, {}, threads);
      break;
    case Op::Dense:
      cpu_result_ = dense_cpu(dense_, xs_, ys_);
      break;
    case Op::Cg: {
      // One CPU CG iteration from the GPU's start (plus its set-up: one dot and copies, and
      // from x0 = b a matrix product).
      cpu_result_ =
          cg_cpu(banded_, ys_, 0.0, 1, nullptr, nullptr, cg_start() == CgStart::RightHandSide, nullptr, threads);
      break;
    }
  }
}

double Workload::check() const {
  if (scalar()) {
    double got = ops_->scalars().get(kSlot);
    if (config_.float_float && config_.op == Op::Dot) got += double(ops_->scalars().get(kSlot + 1));
    return std::fabs(got - cpu_scalar_) / std::max(std::fabs(cpu_scalar_), 1e-30);
  }
  auto got = out_->download();
  if (config_.op == Op::Cg) return true_residual(got);
  if (cpu_result_.size() != got.size()) return NAN;
  double err = 0, scale = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    err = std::max(err, std::fabs(got[i] - cpu_result_[i]));
    scale = std::max(scale, std::fabs(cpu_result_[i]));
  }
  return err / std::max(scale, 1e-30);
}

double Workload::true_residual(const std::vector<float>& hi, const std::vector<float>* lo) const {
  const unsigned all = std::max(1u, std::thread::hardware_concurrency());  // a check: on every core
  auto ah = banded_cpu(banded_, hi, 1, 0, {}, all);
  std::vector<double> al = lo ? banded_cpu(banded_, *lo, 1, 0, {}, all) : std::vector<double>();
  double rr = 0, bb = 0;
  for (uint32_t i = 0; i < n_; ++i) {
    double r = ys_[i] - (ah[i] + (lo ? al[i] : 0.0));
    rr += r * r;
    bb += double(ys_[i]) * ys_[i];
  }
  return std::sqrt(rr / bb);
}

double Workload::true_residual(const std::vector<double>& x) const {
  std::vector<float> hi(n_), lo(n_);
  for (uint32_t i = 0; i < n_; ++i) hi[i] = float(x[i]), lo[i] = float(x[i] - double(hi[i]));
  return true_residual(hi, &lo);
}

double Workload::cg_twin_residual() const {
  if (config_.op != Op::Cg) throw std::logic_error("cg_twin_residual is for CG");
  return true_residual(cg_cpu(banded_, ys_, 0.0, cg_iter_, nullptr, nullptr, cg_start() == CgStart::RightHandSide,
                              nullptr, std::max(1u, std::thread::hardware_concurrency())));
}

PrecisionComparison Workload::compare_precisions(float tolerance, uint32_t max_iterations) {
  if (config_.op != Op::Cg) throw std::logic_error("compare_precisions is for CG");
  CgOptions o;
  o.variant = Variant::Modern;
  o.tolerance = tolerance;
  o.max_iterations = std::min(max_iterations, ops_->scalars().history_capacity() - 1);
  o.check_every = 20;
  PrecisionComparison out;
  Vec x(ctx_, n_, config_.layout), xh(ctx_, n_, config_.layout), xl(ctx_, n_, config_.layout);
  auto rf = cg_->solve(*y_, x, o);
  auto xf = x.download();
  out.entries.push_back({"float32 (GPU)", rf.iterations, true_residual(xf)});
  // Float-float CG runs on the stored band: the stencil forms make one for it.
  std::unique_ptr<GpuBanded> band;
  std::unique_ptr<Cg> band_cg;
  if (!gpu_banded_) {
    band = std::make_unique<GpuBanded>(ctx_, banded_, config_.layout);
    band_cg = std::make_unique<Cg>(*ops_, *band);
  }
  auto rff = (band_cg ? *band_cg : *cg_).solve_ff(*y_, xh, xl, o);
  auto h = xh.download(), l = xl.download();
  std::vector<double> xff(n_);
  for (uint32_t i = 0; i < n_; ++i) xff[i] = double(h[i]) + double(l[i]);
  out.entries.push_back({"float-float (GPU)", rff.iterations, true_residual(xff)});
  uint32_t it = 0;
  auto xd = cg_cpu(banded_, ys_, tolerance, o.max_iterations, &it);
  out.entries.push_back({"double (CPU)", it, true_residual(xd)});
  ctx_.submit_now([&](VkCommandBuffer cmd) { record_restart(cmd); });  // the live solve starts over
  cg_iter_ = 0;
  return out;
}

const Vec& Workload::result() const { return scalar() ? *x_ : *out_; }

bool Workload::scalar() const {
  auto op = config_.op;
  return op == Op::Dot || op == Op::Norm || op == Op::Max || op == Op::Min;
}

std::vector<ExtremePass> Workload::extreme_passes() const {
  if (config_.op != Op::Max && config_.op != Op::Min) return {};
  if (config_.variant == Variant::Modern) return {{x_->quads(), x_->side(), 0, 0}};
  return linalg::extreme_passes(config_.layout, n_);
}

uint32_t Workload::extreme_groups() const { return ops_->groups(x_->quads(), true); }

std::vector<Panel> Workload::panels() const {
  switch (config_.op) {
    case Op::Axpby:
      return {{"x", x_.get()}, {"y", y_.get()}, {"1.5 x - 0.5 y", out_.get()}};
    case Op::Product:
      return {{"x", x_.get()}, {"y", y_.get()}, {"x * y (element by element)", out_.get()}};
    case Op::Dot:
      return {{"x", x_.get()}, {"y", y_.get()}};
    case Op::Norm:
    case Op::Max:
    case Op::Min:
      return {{"x", x_.get()}};
    case Op::Banded:
      return {{"x", x_.get()}, {"A x (" + std::to_string(config_.diagonals) + " diagonals)", out_.get()}};
    case Op::Dense:
      return {{"x", x_.get()}, {"y", y_.get()}, {"A x + y", out_.get()}};
    case Op::Cg:
      return {{"b (the right-hand side)", y_.get()}, {"x (the solution so far)", out_.get()}};
  }
  return {};
}

const Vec* Workload::residual() const { return cg_ ? &cg_->residual() : nullptr; }

uint32_t Workload::grid_width() const {
  if (config_.op == Op::Dense) return std::max(1u, uint32_t(std::ceil(std::sqrt(double(n_)))));
  return 2 * config_.side;  // side·side·4 values on a square grid
}

}  // namespace linalg
