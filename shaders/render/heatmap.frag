#version 460
#extension GL_GOOGLE_include_directive : require
// A scalar field read straight from the R32F storage image the compute passes write.
layout(binding = 0, r32f) uniform readonly image2D field;
#include "heatmap.glsl"

float cell(ivec2 p) { return imageLoad(field, p).r; }
