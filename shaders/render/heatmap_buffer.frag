#version 460
#extension GL_GOOGLE_include_directive : require
// A scalar field read straight from the storage buffer the compute passes write: size.x
// floats a row, row-major.
layout(std430, binding = 0) readonly buffer Field { float field[]; };
#include "heatmap.glsl"

float cell(ivec2 p) { return field[p.y * size.x + p.x]; }
