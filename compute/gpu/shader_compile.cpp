#include "compute/gpu/shader_compile.h"

#include <shaderc/shaderc.hpp>

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>

namespace gpu {

namespace {

class DirIncluder : public shaderc::CompileOptions::IncluderInterface {
 public:
  explicit DirIncluder(std::vector<std::filesystem::path> dirs) : dirs_(std::move(dirs)) {}

  shaderc_include_result* GetInclude(const char* requested, shaderc_include_type, const char* requesting,
                                     size_t) override {
    auto* held = new Held;
    // Only a relative name under the given folders: none given (a user's kernel), nothing is
    // read; an absolute name or one with ".." never leaves them.
    std::filesystem::path name(requested);
    bool inside = !name.is_absolute() && std::none_of(name.begin(), name.end(), [](auto& p) { return p == ".."; });
    std::vector<std::filesystem::path> where = dirs_;
    if (!where.empty()) where.insert(where.begin(), std::filesystem::path(requesting).parent_path());
    if (!inside) where.clear();
    for (auto& dir : where) {
      std::ifstream in(dir / requested);
      if (!in) continue;
      std::stringstream s;
      s << in.rdbuf();
      held->name = (dir / requested).string();
      held->content = s.str();
      break;
    }
    if (held->name.empty()) held->content = std::string("cannot find include file ") + requested;
    held->result = {held->name.c_str(), held->name.size(), held->content.c_str(), held->content.size(), held};
    return &held->result;
  }
  void ReleaseInclude(shaderc_include_result* r) override { delete static_cast<Held*>(r->user_data); }

 private:
  struct Held {
    std::string name, content;
    shaderc_include_result result;
  };
  std::vector<std::filesystem::path> dirs_;
};

}  // namespace

CompileResult compile_glsl(const std::string& source, ShaderStage stage, const std::string& name,
                           const std::vector<std::filesystem::path>& include_dirs, bool optimize) {
  shaderc::Compiler compiler;
  shaderc::CompileOptions options;
  options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_2);
  // Unoptimised SPIR-V keeps what the source declares (e.g. a push block no code reads).
  options.SetOptimizationLevel(optimize ? shaderc_optimization_level_performance : shaderc_optimization_level_zero);
  options.SetIncluder(std::make_unique<DirIncluder>(include_dirs));
  shaderc_shader_kind kind = stage == ShaderStage::Compute  ? shaderc_glsl_compute_shader
                             : stage == ShaderStage::Vertex ? shaderc_glsl_vertex_shader
                                                            : shaderc_glsl_fragment_shader;
  CompileResult out;
  if (!compiler.IsValid()) {
    out.messages = "shaderc compiler could not be initialised";
    return out;
  }
  auto result = compiler.CompileGlslToSpv(source, kind, name.c_str(), options);
  out.messages = result.GetErrorMessage();
  out.ok = result.GetCompilationStatus() == shaderc_compilation_status_success;
  if (out.ok) out.spirv.assign(result.cbegin(), result.cend());
  return out;
}

}  // namespace gpu
