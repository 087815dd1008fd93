// A tool position as the GPU reads it (compute/machining/zbuffer.cpp packs it): the tip,
// and the rotation taking the tool frame (axis +z) to the world, with the placed tool's
// xy bounding box relative to the tip tucked into the w components.
struct Pos {
  vec4 t;           // tip xyz; w = bbox max y
  vec4 r0, r1, r2;  // rotation rows; w = bbox min x, min y, max x
};
