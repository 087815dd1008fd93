#version 460
#extension GL_GOOGLE_include_directive : require
#define REAL double
#define REAL4 dvec4
#include "fma_peak.glsl"
