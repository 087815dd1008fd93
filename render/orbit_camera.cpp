#include "render/orbit_camera.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace render {

glm::vec3 OrbitCamera::eye() const {
  if (trackball) return target + distance * (turn * glm::vec3(0, 0, 1));
  return target +
         distance * glm::vec3(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
}

glm::vec3 OrbitCamera::up() const { return trackball ? turn * glm::vec3(0, 1, 0) : glm::vec3(0, 1, 0); }

glm::mat4 OrbitCamera::view_proj(float aspect) const {
  glm::mat4 proj = glm::perspectiveRH_ZO(fov_y, aspect, 0.02f * distance, 20.0f * distance);
  proj[1][1] *= -1.0f;  // Vulkan's clip y points down
  return proj * glm::lookAtRH(eye(), target, up());
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

void OrbitCamera::set_trackball(bool on) {
  if (on == trackball) return;
  if (on) {  // yaw about y after pitch about x carries +z to the orbit's eye direction
    turn = glm::angleAxis(yaw, glm::vec3(0, 1, 0)) * glm::angleAxis(-pitch, glm::vec3(1, 0, 0));
  } else {
    glm::vec3 back = turn * glm::vec3(0, 0, 1);
    pitch = std::clamp(std::asin(std::clamp(back.y, -1.0f, 1.0f)), -1.5f, 1.5f);
    yaw = std::atan2(back.x, back.z);
  }
  trackball = on;
}

void OrbitCamera::roll(float x0, float y0, float x1, float y1, const Rect& vp) {
  auto on_sphere = [&](float px, float py) {
    float side = std::max(std::min(vp.w, vp.h), 1.0f);
    glm::vec3 v((2 * (px - vp.x) - vp.w) / side, (vp.h - 2 * (py - vp.y)) / side, 0.0f);  // y up
    float r2 = v.x * v.x + v.y * v.y;
    v.z = r2 <= 0.5f ? std::sqrt(1 - r2) : 0.5f / std::sqrt(r2);
    return glm::normalize(v);
  };
  glm::vec3 a = on_sphere(x0, y0), b = on_sphere(x1, y1), axis = glm::cross(a, b);
  if (glm::length(axis) < 1e-7f) return;
  float angle = std::acos(std::clamp(glm::dot(a, b), -1.0f, 1.0f));
  // the scene turns by `angle` about `axis` (camera frame): the camera the other way
  turn = glm::normalize(turn * glm::angleAxis(-angle, glm::normalize(axis)));
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
