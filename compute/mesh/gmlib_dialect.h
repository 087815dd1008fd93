// The manual's kernels as printed (Maréchal 2020, GMlib v3 manual, §2.1 to §2.5): a text with
// the line "// dialect: gmlib" is read in GMlib's own names and OpenCL's spellings and turned,
// line for line, into the lab's GLSL (kernel_text.h) before it compiles. The aliases:
//   - "// data: Name Type Kind [read] [write] [neighbours]" in a section stands for the
//     GmlNewSolutionData and GmlCompileKernel lines of the manual (Type: GmlFlt, GmlFlt4,
//     GmlInt, GmlDbl..., or float4, int, ...; the modes as GmlReadMode / GmlWriteMode, both when
//     neither is given; neighbours: the GmlSetNeighbours link passed with it);
//   - a data of the loop's kind is named bare (Tmp, relaxed, VerSol) or after the loop (VerVitesse);
//     its field is the name capitalised, less a leading kind (Tmp, Relaxed, Sol);
//     with neighbours, LBar[0] is the element's own and LBar[1..] its neighbours' (zero across none);
//   - LCrd[k] (TriCrd[k], TetCrd[k]) the element's vertices as float4 (w = 0), and in a vertex
//     loop VerCrd a float4 too (its w dropped when stored);
//   - OpenCL: float2..4, int2..4, uint2..4, double2..4, casts (float)x and (float4)(...),
//     initialisers {0} and {a, b, c, d}, get_global_id(0); the body runs in a block of its own,
//     so `int i;` may shadow the lab's loop index.
// Where the printed text is wrong, the misprint is reported with its line: refused, or run with
// the evident fix (each says which). help.md's table lists what is found in each printed kernel.
#pragma once
#include "compute/mesh/gpu_mesh.h"

#include <string>
#include <vector>

namespace mesh {

enum class Misprints { Fix, Refuse };

struct Misprint {
  int line = 0;      // in the whole text, 1-based
  std::string what;  // what is wrong
  std::string fix;   // what runs instead (with Misprints::Fix)
};

struct GmlibText {
  std::string glsl;                 // the lab's dialect, the same lines
  std::vector<Misprint> misprints;  // in line order
};

bool is_gmlib(const std::string& text);  // a line "// dialect: gmlib"
// Throws KernelError on a bad "// data:" line, on an alias that cannot apply, and (Refuse, or a
// misprint without an evident fix) on misprints, naming each with its line.
GmlibText from_gmlib(const std::string& text, Misprints policy);
// "line 3: ...; run as ..." one a line (empty: none).
std::string misprint_report(const std::vector<Misprint>& m);

// The printed kernels shipped as files (assets/mesh/kernels/manual/), as the lab's examples.
struct ManualKernel {
  std::string example;  // its name in the Example list
  std::string file;     // under assets/mesh/kernels/manual/
  std::string colour;   // the field to colour by (the lab's name)
};
const std::vector<ManualKernel>& manual_kernels();

}  // namespace mesh
