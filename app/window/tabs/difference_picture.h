// The difference picture of an output array: a cell an element (a block of elements where the
// array is large), dark green where the kernel's value equals the CPU twin's, green within
// the tolerance, red outside it; the element under the mouse said on hover.
#pragma once
#include "compute/exercise/check.h"

// Draws the picture at most `max_width` × `max_height` pixels.
void draw_difference_picture(const exercise::ArrayCheck& a, float max_width, float max_height);
