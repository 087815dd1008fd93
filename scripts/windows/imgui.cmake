# Dear ImGui as Debian's libimgui-dev holds it (the library, its headers in include/imgui/, the
# GLFW and Vulkan backends' sources beside them), for scripts/windows/build-deps.sh: copied
# into the unpacked source as its CMakeLists.txt.
cmake_minimum_required(VERSION 3.16)
project(imgui CXX)
add_library(imgui STATIC imgui.cpp imgui_draw.cpp imgui_tables.cpp imgui_widgets.cpp imgui_demo.cpp
                         misc/cpp/imgui_stdlib.cpp)
target_include_directories(imgui PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
install(TARGETS imgui ARCHIVE DESTINATION lib)
install(FILES imgui.h imconfig.h imgui_internal.h imstb_rectpack.h imstb_textedit.h imstb_truetype.h
              misc/cpp/imgui_stdlib.h DESTINATION include/imgui)
install(FILES backends/imgui_impl_glfw.h backends/imgui_impl_glfw.cpp backends/imgui_impl_vulkan.h
              backends/imgui_impl_vulkan.cpp DESTINATION include/imgui/backends)
