// A camera that orbits a target (y up): right-drag turns it, the wheel zooms; rays through
// pixels for picking. Or, as a trackball (SIMSURF §16.3.3), a free rotation: the pointer drags a
// sphere round the target, any axis, upside down included. Vulkan conventions: clip y points
// down, depth 0..1.
#pragma once
#include "render/target.h"

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace render {

struct Ray {
  glm::vec3 origin, dir;  // dir normalised
};

struct OrbitCamera {
  glm::vec3 target{0.0f};
  float distance = 2.6f, yaw = 0.5f, pitch = 0.7f;  // radians; pitch above the horizon
  float fov_y = 0.8f;                               // radians
  bool trackball = false;                           // turned by `turn`, not yaw and pitch
  glm::quat turn{1.0f, 0.0f, 0.0f, 0.0f};           // trackball: camera frame -> world

  glm::vec3 eye() const;
  glm::vec3 up() const;
  glm::mat4 view_proj(float aspect) const;
  Ray ray(float px, float py, const Rect& viewport) const;  // through pixel (px, py)
  void orbit(float dx_pixels, float dy_pixels);
  // Trackball on or off, the view kept: the turn starts from yaw and pitch, and they from it.
  void set_trackball(bool on);
  // The rotation that drags the point of the sphere under (x0, y0) to the one under (x1, y1)
  // (a sphere filling the viewport's smaller side, a hyperbolic sheet beyond: Bell's trackball).
  void roll(float x0, float y0, float x1, float y1, const Rect& viewport);
  void zoom(float wheel_steps);
};

// Where a ray meets the plane y = h; false if it runs parallel or away.
bool hit_plane_y(const Ray& r, float h, glm::vec3& at);

}  // namespace render
