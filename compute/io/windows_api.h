// <windows.h> as compute/io's Windows sides include it (Windows builds only): without the min
// and max macros that break std::min, and without the rarely used parts.
#pragma once
#ifdef _WIN32
#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#endif
