#version 460
// CG's stop test as its own one-invocation pass (common/gate.glsl): opens a gated solve.
// Later iterations test inside cg_update's reduction instead.
#extension GL_GOOGLE_include_directive : require
#define SCALARS_BINDING 0
#include "scalars.glsl"
#define GATE_BINDING 1
#include "gate.glsl"
layout(local_size_x = 1) in;
#define PUSH_GatePush
#include "linalg_push.h"

void main() { gate_update(S[rho], S[bb], tol2, iteration, out_slot, groups_full, groups_reduce); }
