// The machining engines' push constants (compute/machining/zbuffer.cpp, shaders/machining/).
#ifndef VKLAB_SHADERS_MACHINING_MACHINING_PUSH_H  // C++ sees each block once (GLSL includes a header once a shader)
#define VKLAB_SHADERS_MACHINING_MACHINING_PUSH_H
#include "shaders/common/push.h"
PUSH_BEGIN
#if defined(__cplusplus) || defined(PUSH_EnginePush)
PUSH_BLOCK(EnginePush) {  // every compute engine (engine.glsl)
  uint nx, ny;
  float x0, y0, d;  // brin (i, j) at (x0 + i·d, y0 + j·d)
  uint tri_first, tri_count, pos_first, pos_count;
  uint slice, slice_rows;  // rows [slice·slice_rows, +slice_rows) of a large triangle's box
  uint brin_first, brin_count;
  uint takes, per_take;  // persistent threads: at most `takes` takes of per_take pairs a thread
  uint parts;            // the granularity factor G (seed 003 §6.4.3): position and triangle engines
  float sx, sy, sz, sr;  // the tool's bounding sphere in its frame (the N-buffer's culling, nbuffer.prec.comp)
};
#endif
#if defined(__cplusplus) || defined(PUSH_HwPush)
PUSH_BLOCK(HwPush) {  // the hardware rasterizer (hw.vert) and its merge (hw_merge.comp)
  uint nx, ny;
  float x0, y0, d, zlo, zhi;  // depth = (z − zlo) / (zhi − zlo)
  uint pos_first;
};
#endif
#if defined(__cplusplus) || defined(PUSH_NarrowPush)
PUSH_BLOCK(NarrowPush) { uint n; };  // narrow.comp, nbuffer_picture.comp: the brins
#endif
#if defined(__cplusplus) || defined(PUSH_TornPush)
PUSH_BLOCK(TornPush) {  // torn_halves.comp, torn_whole.comp (compute/machining/torn.h)
  uint slots, writers, rounds, form;  // form (torn_whole): 0 one 64-bit store, 1 atomicExchange
};
#endif
PUSH_END
#endif
