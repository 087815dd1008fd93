#version 460
#extension GL_GOOGLE_include_directive : require
#define REAL float
#define REAL4 vec4
#include "fma_peak.glsl"
