#version 460
// Depth only: the rasterizer's interpolated depth is the answer.
void main() {}
