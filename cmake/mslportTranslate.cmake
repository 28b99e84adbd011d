# mslport_translate(): translate Metal compute kernels at build time.
#
#   mslport_translate(<name> SOURCES <file.metal>...
#     [BACKEND openmp|opencl]               default: openmp
#     [OUTPUT_DIRECTORY <dir>]              default: ${CMAKE_CURRENT_BINARY_DIR}/<name>
#     [INCLUDE_DIRECTORIES <dir>...]        mslport's -I
#     [DEFINES <NAME[=VALUE]>...]           -D
#     [FUNCTION_CONSTANTS <NAME=VALUE>...]  --function-constant
#     [KERNELS <kernel>...]                 only these kernels (--kernel)
#     [DEPENDS <file>...]                   files the sources include: translate again when they change
#     [WERROR])                             a kernel that cannot be translated fails the build
#
# BACKEND openmp: <name> is a static library of the emitted C++. Linking it
# gives the headers <stem>.h (the C entry points and the typed C++ API; they
# need neither OpenMP nor the runtime's internals) and OpenMP. The emitted
# C++ is compiled with `mslport --cflags` for this project's C++ compiler:
# the flags `mslport check` validates kernels with. Configure with
# -DCMAKE_CXX_COMPILER=$(mslport --cxx) to build them exactly as checked.
#
# BACKEND opencl: <name> is a target (built by default) that writes
# <stem>.cl and <stem>.bindings.json.
#
# Either way the target's MSLPORT_OUTPUT_DIRECTORY property names the
# directory of the outputs.

# The flags `mslport check` compiles emitted C++ with, for this project's
# C++ compiler (MSLPORT_CXX is what check would use).
function(_mslport_cxx_flags out_var)
  get_property(flags GLOBAL PROPERTY _MSLPORT_CXX_FLAGS)
  if(flags)
    set(${out_var} "${flags}" PARENT_SCOPE)
    return()
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "MSLPORT_CXX=${CMAKE_CXX_COMPILER}" "${MSLPORT_EXECUTABLE}" --cflags
                  OUTPUT_VARIABLE flags ERROR_VARIABLE err RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mslport_translate: `${MSLPORT_EXECUTABLE} --cflags` failed (${rc}): ${err}")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set_property(GLOBAL PROPERTY _MSLPORT_CXX_FLAGS "${flags}")
  # The compiler check validates with, against the one that will build.
  execute_process(COMMAND "${MSLPORT_EXECUTABLE}" --cxx OUTPUT_VARIABLE checked RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc EQUAL 0 AND NOT IS_ABSOLUTE "${checked}")
    find_program(_mslport_checked_cxx NAMES "${checked}")
    set(checked "${_mslport_checked_cxx}")
  endif()
  if(rc EQUAL 0 AND checked)
    file(REAL_PATH "${checked}" checked_real)
    file(REAL_PATH "${CMAKE_CXX_COMPILER}" this_real)
    if(NOT checked_real STREQUAL this_real)
      message(WARNING "mslport_translate: emitted C++ is built with ${CMAKE_CXX_COMPILER}; `mslport check` "
                      "validates it with ${checked} (configure with -DCMAKE_CXX_COMPILER=${checked} to build "
                      "kernels exactly as checked)")
    endif()
  endif()
  set(${out_var} "${flags}" PARENT_SCOPE)
endfunction()

function(mslport_translate name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "WERROR" "BACKEND;OUTPUT_DIRECTORY"
                        "SOURCES;INCLUDE_DIRECTORIES;DEFINES;FUNCTION_CONSTANTS;KERNELS;DEPENDS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "mslport_translate(${name}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "mslport_translate(${name}): no SOURCES")
  endif()
  if(NOT arg_BACKEND)
    set(arg_BACKEND openmp)
  endif()
  if(NOT arg_BACKEND MATCHES "^(openmp|opencl)$")
    message(FATAL_ERROR "mslport_translate(${name}): BACKEND is openmp or opencl, not '${arg_BACKEND}'")
  endif()
  if(NOT arg_OUTPUT_DIRECTORY)
    set(arg_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/${name})
  endif()
  get_filename_component(out "${arg_OUTPUT_DIRECTORY}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  file(MAKE_DIRECTORY "${out}")

  set(options)
  foreach(dir IN LISTS arg_INCLUDE_DIRECTORIES)
    get_filename_component(dir "${dir}" ABSOLUTE)
    list(APPEND options -I "${dir}")
  endforeach()
  foreach(define IN LISTS arg_DEFINES)
    list(APPEND options -D "${define}")
  endforeach()
  foreach(fc IN LISTS arg_FUNCTION_CONSTANTS)
    list(APPEND options --function-constant "${fc}")
  endforeach()
  foreach(kernel IN LISTS arg_KERNELS)
    list(APPEND options --kernel "${kernel}")
  endforeach()
  if(arg_WERROR)
    list(APPEND options --Werror)
  endif()
  set(depends)
  foreach(dep IN LISTS arg_DEPENDS)
    get_filename_component(dep "${dep}" ABSOLUTE)
    list(APPEND depends "${dep}")
  endforeach()

  set(outputs)
  set(stems)
  foreach(src IN LISTS arg_SOURCES)
    get_filename_component(src "${src}" ABSOLUTE)
    get_filename_component(stem "${src}" NAME_WLE)
    if(stem IN_LIST stems)
      message(FATAL_ERROR "mslport_translate(${name}): two sources named ${stem}.metal write the same outputs")
    endif()
    list(APPEND stems "${stem}")
    if(arg_BACKEND STREQUAL "openmp")
      set(files "${out}/${stem}.cpp" "${out}/${stem}.h")
    else()
      set(files "${out}/${stem}.cl" "${out}/${stem}.bindings.json")
    endif()
    list(GET files 0 primary)
    add_custom_command(OUTPUT ${files}
      COMMAND mslport::mslport translate "${src}" --target ${arg_BACKEND} -o "${primary}" ${options}
      DEPENDS "${src}" ${depends} "${MSLPORT_EXECUTABLE}"
      COMMENT "mslport: translating ${stem}.metal for ${arg_BACKEND}"
      VERBATIM)
    list(APPEND outputs ${files})
  endforeach()

  if(arg_BACKEND STREQUAL "openmp")
    get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
    if(NOT "CXX" IN_LIST languages)
      message(FATAL_ERROR "mslport_translate(${name}): BACKEND openmp builds C++: enable the CXX language")
    endif()
    find_package(OpenMP REQUIRED COMPONENTS CXX)
    _mslport_cxx_flags(flags)
    add_library(${name} STATIC ${outputs})
    target_include_directories(${name} PUBLIC "${out}")
    target_compile_options(${name} PRIVATE ${flags})
    target_link_libraries(${name} PUBLIC mslport::headers PRIVATE OpenMP::OpenMP_CXX)
  else()
    add_custom_target(${name} ALL DEPENDS ${outputs})
  endif()
  set_target_properties(${name} PROPERTIES MSLPORT_OUTPUT_DIRECTORY "${out}")
endfunction()
