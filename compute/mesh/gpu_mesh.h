// A mesh on the GPU as the seed's GMlib holds it (seed 004, §2), and kernels over it.
//
// Entities: vertices (VerCrd), every element kind the mesh has (Edg, Tri, Qua, Tet, Pyr,
// Pri, Hex: their vertex lists and references) and the edges extracted from them
// (GmlExtractEdges). Fields (GmlNewSolutionData, FieldType below): byte, int16, int, float or
// double scalars, vectors of 2 to 16 and arrays of them, at any entity kind. User link tables (GmlNewLinkData). The
// automatic links — downward (element → vertices, element → edges), transverse (neighbours across facets,
// GmlSetNeighbours), upward (balls: vertex → elements; shells: edge → elements), padded to
// a power of two with the exact degree — are built the first time a kernel reads them.
//
// Kernels (GmlCompileKernel): the user writes only the loop body in GLSL; the generator
// declares the buffers the body names, loads the current entity's fields and the ones
// reached through the links, compiles at run time with shaderc and stores the fields the
// body assigns. Naming, as the seed's: loop short name + field name. In a loop over L
// (index i), for a field F:
//   F at L:           LF (read/write)                              e.g. TriArea
//   F at vertices:    LVerF[N], and LVerCrd[N], LVer (the N vertex indices: uvecN, or uint[N] past 4)
//   F at edges:       LEdgF[E], LEdg[E] (the element's edges)      e.g. TetEdgLen[6]
//   neighbours:       LL[nf] (UINT32_MAX across a boundary), LLF[nf] (zero there)
//   upward (L = Ver or Edg, X an element kind): LX[PAD], LXDeg, LXF[PAD] (zero from LXDeg
//                     on), LXDegMax = PAD (the padded size, a power of two: that of the
//                     entity's degree class where the mesh is numbered by degree, links.h),
//                     LXVoy[PAD] (GMlib's voyeurs: the corner the vertex is of each element,
//                     the local edge the edge is of it; 0 from LXDeg on), and for an array
//                     field LXF[k][c] reads element c of slot k alone (VerTetOpt[k][VerTetVoy[k]])
//   user link K from L: LK[slots], LKF[slots] (and LKCrd[slots] to vertices)
//   LRef: the entity's reference, and LXRef[] the references of those reached through a link;
//   VerCrd (vec3, read/write) in a vertex loop;
//   F_[] is a field's whole array (scatter, atomics: atomicAdd(F_[TriVer.x].x, a); colouring:
//   F_[TriVer.x].x += a in a loop compiled by colour, colouring.h).
#pragma once
#include "compute/mesh/colouring.h"
#include "compute/mesh/group_tuning.h"
#include "compute/mesh/links.h"

#include "compute/gpu/loop_budget.h"
#include "compute/gpu/pipeline.h"
#include "compute/gpu/profiler.h"

#include <map>
#include <memory>
#include <stdexcept>

namespace mesh {

const char* short_name(Kind k);  // Ver, Edg, Tri, Qua, Tet, Pyr, Pri, Hex

enum class Scalar { Float, Int, Double, Int8, Int16 };
// A field's type as GmlNewSolutionData gives it (manual §4.19): a scalar (float, int, double,
// and the manual's byte and 16-bit int) or a vector of 2, 3, 4, 8 or 16 of them, and `count`
// of those an entity (its NmbDat, the local array). Up to 4 components and count 1 a kernel
// sees the GLSL type itself (vec3, i8vec2); wider or several, an array: vec8 is float X[8],
// vec4[2] is vec4 X[2], vec8[2] is float X[16]. std430 layout.
struct FieldType {
  Scalar scalar = Scalar::Float;
  uint32_t components = 4;  // 1, 2, 3, 4, 8 or 16
  uint32_t count = 1;       // vectors an entity, 1 to 64
  bool operator==(const FieldType&) const = default;
};
std::string glsl_type(FieldType t);                // float, vec3, int, i8vec2, int16_t, dvec4, vec8, vec4[2]
FieldType parse_field_type(const std::string& s);  // the inverse; throws std::invalid_argument
uint32_t scalar_bytes(Scalar s);
uint32_t field_stride(FieldType t);                  // bytes an entity (std430: a 3-vector takes 4)
uint32_t field_values(FieldType t);                  // scalars an entity: components·count
bool field_is_array(FieldType t);                    // a kernel sees an array (more than 4, or count > 1)
std::string field_element(FieldType t);              // the GLSL type of one element of it (else the type)
uint32_t field_elements(FieldType t);                // that array's length (1: no array)
uint32_t field_offset(FieldType t, uint32_t value);  // bytes from an entity's start to its scalar `value`

// GmlNewParameters (manual §4.18): one structure of named values shared by the host and every
// kernel, which reads and writes it as Par.Name. The host's copy goes to the GPU before the
// next launch whenever the host changed it (no compiling); launches given a read-back slot copy
// it back after they ran. std430 layout, members in declaration order.
struct Parameter {
  std::string name;
  FieldType type;
  std::vector<double> values;  // one a component
};

struct KernelError : std::runtime_error {
  using std::runtime_error::runtime_error;  // the compiler's messages, lines counted in the user's body
};

class GpuMesh {
 public:
  GpuMesh(gpu::Context& ctx, const Mesh& m);
  // The same, its element tables moved out of m rather than copied (m keeps its vertices): for a
  // caller that needs only m's coordinates after (a big mesh's opening copies hundreds of MB less).
  struct TakeElements {};
  GpuMesh(gpu::Context& ctx, Mesh& m, TakeElements);
  size_t count(Kind k) const;  // 0 where the mesh has none
  size_t vertices() const { return count(Kind::Vertices); }
  std::vector<Kind> kinds() const;  // those present, vertices first
  const EdgeSet& edges() const { return edges_; }
  const Elements& elements(Kind k) const;  // host copy (Edges: the extracted set)
  gpu::Context& context() const { return ctx_; }

  // A field, zero-filled; replaces one of the same name. Doubles need an fp64 device.
  void add_field(const std::string& name, Kind at, FieldType type = {});
  void upload(const std::string& name, const std::vector<double>& values);  // components a line
  std::vector<double> download(const std::string& name) const;
  // GmlSetDataLine and GmlGetDataLine: one entity's values (its components) written to the GPU,
  // the rest of the field untouched, or read from it.
  void set_line(const std::string& name, size_t entity, const std::vector<double>& values);
  std::vector<double> line(const std::string& name, size_t entity) const;
  // GmlFreeData: the field's memory on the GPU and the host freed and its name free for a new
  // field. A kernel compiled with it must not run after (compile it again: the name is unknown).
  void free_field(const std::string& name);
  bool has_field(const std::string& name) const { return fields_.count(name) != 0; }
  Kind field_at(const std::string& name) const { return fields_.at(name).at; }
  FieldType field_type(const std::string& name) const { return fields_.at(name).type; }
  std::vector<std::string> field_names() const;
  std::vector<float> coordinates() const;  // VerCrd, 4 floats a vertex
  // Write back (GmlExportMesh / solution): the mesh as it is on the GPU now (coordinates
  // moved by kernels, the extracted edges), and every field, one solution keyword an entity
  // kind, a scalar column a component; `columns` names them ("Bar.x" ...) in file order.
  Mesh download_mesh() const;
  Solutions download_fields(std::vector<std::string>* columns) const;
  void set_coordinates(const std::vector<float>& xyzw);

  // GmlNewLinkData: `slots` indices a `from` entity into the `to` entities (UINT32_MAX: none).
  void add_link(const std::string& name, Kind from, Kind to, uint32_t slots, const std::vector<uint32_t>& table);
  std::vector<std::string> link_names() const;

  // Automatic links, built (and uploaded) on first use.
  const std::vector<uint32_t>& neighbours(Kind k);  // facets a line
  // The neighbours of kind k where they are known already (FaceSet::across), as neighbours() would find them.
  void set_neighbours(Kind k, std::vector<uint32_t> across);
  const Ball& upward(Kind from, Kind to);  // from Vertices (ball) or Edges (shell)

  // For drawing: VerCrd (vec4 a vertex), an element table (N vertices a line; the references in LRef).
  const gpu::Buffer& coordinate_buffer() const { return buffer("VerCrd"); }
  const gpu::Buffer& element_buffer(Kind k) const { return buffer(std::string(short_name(k)) + "Ver"); }
  const gpu::Buffer& field_buffer(const std::string& name) const { return buffer(name); }

  struct Kernel {
    Kind loop = Kind::Triangles;
    std::string parameters;                        // the Par block it was compiled with ("" if it does not use it)
    std::string source;                            // the generated shader (shown to the user on request)
    std::vector<std::string> writes;               // fields stored back
    std::vector<std::string> uses;                 // the buffers bound, in binding order
    std::map<std::string, FieldType> field_types;  // as compiled
    struct Part {                                  // entities first .. first + count - 1
      uint32_t first = 0, count = 0;
      gpu::Pipeline pipeline;       // at kGroupSizes[0] invocations a workgroup
      std::string source;           // its shader (`source` above: every part's, one after the other)
      std::vector<uint32_t> spirv;  // for the other sizes, made on first use:
      mutable std::map<uint32_t, gpu::Pipeline> sized;  // (a cache record() fills)
    };
    std::vector<Part> parts;  // one a degree class of the balls it reads (links.h), else one
    // Compiled by colour (colouring.h): the offsets of the colours' elements in the loop's
    // colouring (colours + 1), each colour a launch with a barrier after; empty: not.
    std::vector<uint32_t> colours;
    uint32_t count = 0;
    uint32_t tag = 0;                      // its name in the run status (take_status), unique in this mesh
    uint32_t budget = 0;                   // loop iterations an invocation (gpu::loop_budget_for)
    int first_line = 1;                    // the user's line of its body's first
    std::vector<gpu::BudgetedLoop> loops;  // the body's loops, each spending from the loop budget
    bool reports = false;                  // it binds the status (loops, or coordinates it stores)
    // Its workgroup size, tuned over its first launches as GMlib does (group_tuning.h): state
    // that record() moves on, the kernel otherwise as compiled.
    mutable GroupTuning tuning;
    uint32_t group_size() const { return tuning.last(); }  // that of its last launch
  };
  // Generates and compiles a kernel; throws KernelError, its lines counted from
  // `first_line` for the body's first (lines of the generated code around it: 100000 on).
  // The kernel stays valid while the fields it names keep their types. `by_colour` (an element
  // loop): it runs colour after colour of colouring(loop), invocation j of a colour on its
  // element LByColour[first + j] (i is that element), so that a body may add into the elements'
  // vertices with a plain F_[v] += x (GMlib manual §2.5's sub-blocks).
  std::unique_ptr<Kernel> compile(Kind loop, const std::string& body, int first_line = 1, bool by_colour = false);
  // compile() in two halves: prepare() writes the shaders (building the balls and links they
  // read: one kernel after another), finish() compiles them to SPIR-V and pipelines, touching
  // nothing prepare() changes, so prepared kernels may be finished on threads of their own.
  struct Prepared {
    std::unique_ptr<Kernel> kernel;
    struct Part {
      uint32_t first = 0, count = 0;
      std::string heading;                    // "// part 1 of 3: ..." where there are several
      Kernel lazy, eager;                     // what each way of reading the slots binds
      std::string lazy_source, eager_source;  // the slots read where the body reads them, or into arrays
    };
    std::vector<Part> parts;
  };
  Prepared prepare(Kind loop, const std::string& body, int first_line = 1, bool by_colour = false);
  std::unique_ptr<Kernel> finish(Prepared prepared) const;
  // The elements of kind k coloured so that no two of a colour share a vertex (colouring.h),
  // built and uploaded (as LByColour, the order) on first use.
  const Colouring& colouring(Kind k);
  // Every kernel's loops spend from a loop budget (compute/gpu/loop_budget.h), and a vertex
  // loop's VerCrd is stored only where finite: a vertex given NaN or infinite coordinates
  // keeps its previous ones and is counted. take_status() says, once the launches have run,
  // which kernel (its tag) ran out first and on which line, and which one first stored
  // non-finite coordinates and for how many vertices; and clears it for the next launches.
  gpu::LoopStatus take_status();
  // Kernels compiled from now on tune their workgroup size (GroupTuning) or keep
  // kGroupSizes[0]; on by default except on a CPU device (lavapipe), where it changes little.
  void set_group_tuning(bool on) { tune_groups_ = on; }
  bool tunes_groups() const { return tune_groups_; }
  // Tries the sizes again from the first round (a kernel tuned while the GPU's clock was
  // still coming up): where this mesh tunes.
  void retune(const Kernel& k) const {
    if (tune_groups_) k.tuning = GroupTuning(ctx_);
  }
  // Throws std::logic_error if not valid(). A kernel that uses Par and is given `readback_slot`
  // (< kParameterSlots) copies Par there after it ran: parameters_after() reads it. Given a
  // scope, times the kernel's dispatches alone into it: between the barriers that order the
  // kernel after what came before and before what comes after (GMlib's launch events time the
  // kernel's execution alone too).
  struct TimedScope {
    gpu::Profiler& profiler;
    std::string name;
    double bytes = 0;
  };
  void record(VkCommandBuffer cmd, const Kernel& k, int readback_slot = -1, const TimedScope* timed = nullptr);

  // GmlNewParameters. set_parameters() lays the structure out with these values (kernels using
  // another layout must be compiled again); an empty list removes it.
  static constexpr uint32_t kParameterSlots = 16;
  void set_parameters(std::vector<Parameter> p);
  const std::vector<Parameter>& parameters() const { return params_; }
  void set_parameter(const std::string& name, const std::vector<double>& values);  // uploaded before the next launch
  // The structure as a launch left it in `slot` (read once the commands have run); adopt: the
  // host's copy becomes it, as the manual downloads after a launch (unless the host changed a
  // value since, which then wins).
  std::vector<Parameter> parameters_after(uint32_t slot) const;
  void adopt_parameters(uint32_t slot);
  std::string parameter_block() const;  // the GLSL block kernels see (`struct` members)
  // Every name a loop body over `loop` may use now (the naming rule applied to this mesh's
  // kinds, fields and links), for the editor's reference: `type name[size]`, what it holds.
  struct Name {
    std::string type, name, size, what;  // size: "" (not an array), a number or a constant's name
  };
  std::vector<Name> names(Kind loop) const;
  bool valid(const Kernel& k) const;  // its fields still there, with their types
  // The kernel's traffic for the Timings table: each buffer it binds read once (the ball
  // tables whole, padding included) and each field it stores written once — an upper bound.
  double traffic(const Kernel& k) const;

  // GmlReduceVector: min, max, sum and L2 norm of one component of a field, on the GPU
  // (sums of an int field are exact integers; of a double field, in doubles).
  struct Reduction {
    double min = 0, max = 0, sum = 0, l2 = 0;
  };
  Reduction reduce(const std::string& field, uint32_t component = 0);  // waits for the GPU
  // The same in two halves: recorded into a frame's commands, read once they have run.
  void record_reduce(VkCommandBuffer cmd, const std::string& field, uint32_t component = 0);
  Reduction read_reduction();
  // GmlGetMemoryUsage: device bytes a buffer, by name (VerCrd, TriVer, VerTri, VerTriDeg, fields...).
  std::vector<std::pair<std::string, size_t>> memory() const;
  // GmlGetMemoryTransfer: bytes moved between host and device so far, by buffer name (up, down).
  const std::map<std::string, std::pair<size_t, size_t>>& transfers() const { return transfers_; }

 private:
  GpuMesh(gpu::Context& ctx, const Mesh& m, Mesh* owner);
  struct Field {
    Kind at;
    FieldType type;
  };
  const Field& field_line(const std::string& name, size_t entity) const;  // checked: the field and its entity
  struct Link {
    Kind from, to;
    uint32_t slots;
  };
  friend class KernelWriter;
  const gpu::Buffer& buffer(const std::string& name) const;
  const gpu::Buffer& resource(const std::string& name);  // builds an automatic link on first use
  void put(const std::string& name, const std::vector<uint32_t>& data);

  gpu::Context& ctx_;
  size_t nv_ = 0;
  std::vector<int64_t> vref_;
  std::map<Kind, Elements> elements_;
  EdgeSet edges_;
  std::map<std::string, gpu::Buffer> buffers_;
  std::map<Kind, std::vector<uint32_t>> neighbours_;
  std::map<std::pair<Kind, Kind>, Ball> upward_;
  std::map<Kind, Colouring> colourings_;
  std::map<std::string, Field> fields_;
  std::map<std::string, Link> links_;
  std::map<std::string, std::unique_ptr<gpu::Pipeline>> reducers_;  // by field type
  struct Partials {  // a reduction's per-group results, host-visible, and how to read them
    gpu::Buffer buffer;
    Scalar scalar = Scalar::Float;
    uint32_t groups = 0;
  };
  void record_reduce(VkCommandBuffer cmd, const std::string& field, uint32_t component, Partials& out);
  Reduction read(Partials& p);
  Partials in_flight_, now_;  // record_reduce / read_reduction, and reduce
  mutable std::map<std::string, std::pair<size_t, size_t>> transfers_;
  gpu::Buffer status_;  // gpu::LoopStatus, host-visible: read after the launches, no copy
  bool tune_groups_ = true;
  const gpu::Pipeline& pipeline(const Kernel::Part& p, uint32_t group) const;
  uint32_t next_tag_ = 0;
  std::vector<Parameter> params_;
  std::vector<uint32_t> param_offsets_;
  uint32_t param_bytes_ = 0;
  bool params_dirty_ = false;
  gpu::Buffer param_readback_;  // kParameterSlots copies, host-visible
  std::vector<uint8_t> pack_parameters() const;
  std::vector<Parameter> unpack_parameters(const uint8_t* bytes) const;
};

}  // namespace mesh
