# CMake toolchain: 64-bit Windows with Debian's MinGW-w64 (g++-mingw-w64-x86-64-posix: the POSIX
# threads flavour, which std::thread needs). The dependencies live in VKLAB_WINDOWS_PREFIX
# (scripts/windows/build-deps.sh prints it); programs such as glslc and python3 come from the host.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(triple x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${triple}-gcc-posix)
set(CMAKE_CXX_COMPILER ${triple}-g++-posix)
set(CMAKE_RC_COMPILER ${triple}-windres)
set(CMAKE_AR ${triple}-gcc-ar-posix CACHE FILEPATH "")
set(CMAKE_RANLIB ${triple}-gcc-ranlib-posix CACHE FILEPATH "")
if(NOT VKLAB_WINDOWS_PREFIX AND DEFINED ENV{VKLAB_WINDOWS_PREFIX})
  set(VKLAB_WINDOWS_PREFIX $ENV{VKLAB_WINDOWS_PREFIX})
endif()
set(CMAKE_FIND_ROOT_PATH /usr/${triple} ${VKLAB_WINDOWS_PREFIX})
set(CMAKE_PREFIX_PATH ${VKLAB_WINDOWS_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(ENV{PKG_CONFIG_LIBDIR} ${VKLAB_WINDOWS_PREFIX}/lib/pkgconfig)  # never the host's .pc files
# The prefix's headers are found as a system's are on Linux (/usr/include): header-only libraries
# (nlohmann-json, glm, volk, stb) are included without a target that says where.
set(CMAKE_C_STANDARD_INCLUDE_DIRECTORIES ${VKLAB_WINDOWS_PREFIX}/include)
set(CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES ${VKLAB_WINDOWS_PREFIX}/include)
# One .exe that needs no MinGW DLL beside it: the C++ runtime, winpthreads and libgcc linked in.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
