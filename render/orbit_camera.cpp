#include "render/orbit_camera.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace render {

glm::vec3 OrbitCamera::eye() const {
  return target +
         distance * glm::vec3(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
}

glm::mat4 OrbitCamera::view_proj(float aspect) const {
  glm::mat4 proj = glm::perspectiveRH_ZO(fov_y, aspect, 0.02f * distance, 20.0f * distance);
  proj[1][1] *= -1.0f;  // Vulkan's clip y points down
  return proj * glm::lookAtRH(eye(), target, glm::vec3(0, 1, 0));
}

Ray OrbitCamera::ray(float px, float py, const Rect& vp) const {
  glm::mat4 inv = glm::inverse(view_proj(vp.w / std::max(vp.h, 1.0f)));
  float x = (px - vp.x) / vp.w * 2.0f - 1.0f, y = (py - vp.y) / vp.h * 2.0f - 1.0f;
  glm::vec4 a = inv * glm::vec4(x, y, 0.0f, 1.0f), b = inv * glm::vec4(x, y, 1.0f, 1.0f);
  glm::vec3 near = glm::vec3(a) / a.w, far = glm::vec3(b) / b.w;
  return {near, glm::normalize(far - near)};
}

void OrbitCamera::orbit(float dx, float dy) {
  yaw -= dx * 0.008f;
  pitch = std::clamp(pitch + dy * 0.008f, -1.5f, 1.5f);
}

void OrbitCamera::zoom(float wheel) { distance = std::clamp(distance * std::pow(0.9f, wheel), 0.3f, 30.0f); }

bool hit_plane_y(const Ray& r, float h, glm::vec3& at) {
  if (std::fabs(r.dir.y) < 1e-6f) return false;
  float t = (h - r.origin.y) / r.dir.y;
  if (t <= 0) return false;
  at = r.origin + t * r.dir;
  return true;
}

}  // namespace render
