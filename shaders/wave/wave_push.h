// The wave lab's push constants (compute/wave/wave.cpp, shaders/wave/).
#ifndef VKLAB_SHADERS_WAVE_WAVE_PUSH_H  // C++ sees each block once (GLSL includes a header once a shader)
#define VKLAB_SHADERS_WAVE_WAVE_PUSH_H
#include "shaders/common/push.h"
PUSH_BEGIN
#if defined(__cplusplus) || defined(PUSH_WaveRhsPush)
PUSH_BLOCK(WaveRhsPush) {
  uint width, height;
  float p0, p1, q0, q1;  // the scheme's weights of h(t) and h(t−1) and of their Laplacians
  float damping, sponge_damping;
  uint sponge;           // width of the absorbing border, in cells
};
#endif
#if defined(__cplusplus) || defined(PUSH_WaveEnergyPush)
PUSH_BLOCK(WaveEnergyPush) { uint width, height; float r; uint slot; };
#endif
#if defined(__cplusplus) || defined(PUSH_WaveDisturbPush)
PUSH_BLOCK(WaveDisturbPush) { uint width, height, shape; float cx, cy, radius, amplitude; };
#endif
PUSH_END
#endif
