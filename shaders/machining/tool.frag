#version 460
// Flat-shaded metal: the face normal from screen-space derivatives.
layout(location = 0) in vec3 world;
layout(location = 0) out vec4 color;
void main() {
  vec3 n = normalize(cross(dFdx(world), dFdy(world)));
  float diffuse = abs(dot(n, normalize(vec3(0.4, 0.8, 0.3))));
  color = vec4(vec3(0.85, 0.72, 0.35) * (0.35 + 0.65 * diffuse), 1.0);
}
