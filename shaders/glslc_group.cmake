# Compiles a group of shaders in one glslc process (shaders/CMakeLists.txt) and moves each
# SPIR-V file to its name. Lists are '|'-separated:
#   cmake -D GLSLC=glslc -D FLAGS=... -D WORK=dir -D SOURCES=a.comp|b.comp -D OUTPUTS=a.spv|b.spv -P glslc_group.cmake
cmake_minimum_required(VERSION 3.25)
foreach(list FLAGS SOURCES OUTPUTS)
  string(REPLACE "|" ";" ${list} "${${list}}")
endforeach()
list(FILTER FLAGS EXCLUDE REGEX "^$")
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
# -c: each source's SPIR-V goes to <its file name>.spv in the working directory.
execute_process(COMMAND ${GLSLC} ${FLAGS} -c ${SOURCES} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "glslc: a shader of this group did not compile (glslc says which above)")
endif()
foreach(src out IN ZIP_LISTS SOURCES OUTPUTS)
  get_filename_component(name ${src} NAME)
  get_filename_component(dir ${out} DIRECTORY)
  file(MAKE_DIRECTORY ${dir})
  file(RENAME ${WORK}/${name}.spv ${out})
endforeach()
