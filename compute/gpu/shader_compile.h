// Runtime GLSL -> SPIR-V through libshaderc, for kernels a user writes while the app runs.
// A source that does not compile gives back the compiler's messages, never an exception.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gpu {

enum class ShaderStage { Compute, Vertex, Fragment };

struct CompileResult {
  bool ok = false;
  std::vector<uint32_t> spirv;
  std::string messages;  // errors and warnings, "name:line: error: ..." as shaderc prints them
};

// `include_dirs` are searched for #include "..." (the shaders/common folder is a good one);
// with none, as for a user's kernel, no #include reads anything.
CompileResult compile_glsl(const std::string& source, ShaderStage stage, const std::string& name,
                           const std::vector<std::filesystem::path>& include_dirs = {}, bool optimize = true);

}  // namespace gpu
