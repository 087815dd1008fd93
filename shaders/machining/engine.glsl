// Bindings and push constants shared by the compute engines, in two precisions
// (HEIGHTS64, seed 003 §15.4.1's mixed strategy): heights as 64-bit keys of doubles and
// the brin–triangle intersection in double, the triangles and positions kept in float.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
#if HEIGHTS64
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#define KEY uint64_t
#define REAL double
#define REAL2 dvec2
#define REAL3 dvec3
#else
#define KEY uint
#define REAL float
#define REAL2 vec2
#define REAL3 vec3
#endif
#include "pos.glsl"
layout(local_size_x_id = 4) in;  // the workgroup size (64 unless the bench's §6.4.3 sweep says)
layout(std430, binding = 0) buffer Heights { KEY H[]; };
layout(std430, binding = 1) readonly buffer Tris { vec4 TRI[]; };
layout(std430, binding = 2) readonly buffer Positions { Pos POS[]; };
layout(std430, binding = 3) buffer Queue { uint next; } queue;  // persistent threads' work counter
layout(std430, binding = 4) buffer Locks { uint LOCK[]; };        // a lock a brin (ATOMIC 2 only)
// How a hit lowers its brin (seed 003 ch. 7; compute/machining/zbuffer.h, enum Atomic):
// 0 atomicMin on the keys (§7.5.3), 1 a compare-and-swap loop (§7.5.2), 2 a spin lock per brin
// around a read-compare-write (§7.5.1), 3 a plain read-compare-write: a race.
layout(constant_id = 0) const uint ATOMIC = 0u;
layout(constant_id = 1) const bool ORDERED_LOCK = true;  // the lock's acquire and release (zbuffer.glsl)
// The brin-triangle test (seed 003 ch. 8): 0 edge functions (§8.3), 1 Möller–Trumbore with the
// Z-buffer's constants propagated (§8.2), 2 Möller–Trumbore as published (§8.1).
layout(constant_id = 2) const uint HIT_TEST = 0u;
// The tool (seed 003 ch. 12): 0 a triangle mesh, 1 an analytic surface (analytic.glsl), a single
// primitive in place of the triangles.
layout(constant_id = 3) const uint TOOL_MODEL = 0u;
// Where a mesh tool's brin-triangle test computes (seed 003 §15.3): 0 the tool frame, the brin
// moved by the inverse translation (§15.3.2, the report's fix); 1 the world frame, the triangle
// translated to the position first (§15.3's unstable strategy, figure 15.1).
layout(constant_id = 5) const uint FRAME = 0u;
// One dispatch covers triangles [tri_first, +tri_count) at positions [pos_first, +pos_count)
// (the per-brin engine: brins [brin_first, +brin_count)), and of each triangle's brin rows
// only slice `slice` of `slice_rows` rows. compute/machining/work.cpp chooses them so that
// no invocation loops more than a bounded number of times (llvmpipe stops any invocation
// after 65 535 loop iterations in all; a display watchdog stops long dispatches).
#define PUSH_EnginePush
#include "machining_push.h"
#define STRIDE (gl_NumWorkGroups.x * gl_WorkGroupSize.x)
#include "zbuffer.glsl"
