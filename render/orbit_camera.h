// A camera that orbits a target (y up): right-drag turns it, the wheel zooms; rays through
// pixels for picking. Vulkan conventions: clip y points down, depth 0..1.
#pragma once
#include "render/target.h"

#include <glm/glm.hpp>

namespace render {

struct Ray {
  glm::vec3 origin, dir;  // dir normalised
};

struct OrbitCamera {
  glm::vec3 target{0.0f};
  float distance = 2.6f, yaw = 0.5f, pitch = 0.7f;  // radians; pitch above the horizon
  float fov_y = 0.8f;                               // radians

  glm::vec3 eye() const;
  glm::mat4 view_proj(float aspect) const;
  Ray ray(float px, float py, const Rect& viewport) const;  // through pixel (px, py)
  void orbit(float dx_pixels, float dy_pixels);
  void zoom(float wheel_steps);
};

// Where a ray meets the plane y = h; false if it runs parallel or away.
bool hit_plane_y(const Ray& r, float h, glm::vec3& at);

}  // namespace render
