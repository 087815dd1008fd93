#version 460
// y = a*x + y over float4: the streaming kernel that measures a device's bandwidth.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X { vec4 x[]; };
layout(std430, binding = 1) buffer Y { vec4 y[]; };
layout(push_constant) uniform Push { float a; uint n4; };

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < n4; i += stride) y[i] = a * x[i] + y[i];
}
