# SPDX-License-Identifier: GPL-3.0-or-later
# One static library per layer folder, linked to the layers it names, and a build step that rejects an #include of
# any other layer. A layer can name only layers declared before it, so the graph stays acyclic; docs/design.md
# draws it.
set(ROOFTOP_CHECK_INCLUDES_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/check_includes.cmake)

# rooftop_layer(TARGET name FOLDER dir INCLUDE_NAME core/x [DEPENDS layer targets...] [LIBS other libraries...]
#               [ONLY file names...] [EXCEPT file names...])
# ONLY / EXCEPT build a part of a folder as its own library (the privileged helper's Qt-free validation).
function(rooftop_layer)
  cmake_parse_arguments(L "" "TARGET;FOLDER;INCLUDE_NAME" "DEPENDS;LIBS;ONLY;EXCEPT" ${ARGN})
  set(allowed ${L_INCLUDE_NAME})
  foreach(dep ${L_DEPENDS})
    get_property(dep_allowed GLOBAL PROPERTY ROOFTOP_LAYER_ALLOWED_${dep})
    if(NOT dep_allowed)
      message(FATAL_ERROR "layer ${L_TARGET} depends on ${dep}, which is not declared before it")
    endif()
    list(APPEND allowed ${dep_allowed})
  endforeach()
  list(REMOVE_DUPLICATES allowed)
  set_property(GLOBAL PROPERTY ROOFTOP_LAYER_ALLOWED_${L_TARGET} "${allowed}")

  if(L_ONLY)
    set(sources "")
    foreach(name ${L_ONLY})
      list(APPEND sources ${L_FOLDER}/${name})
    endforeach()
  else()
    file(GLOB sources CONFIGURE_DEPENDS ${L_FOLDER}/*.cpp ${L_FOLDER}/*.h)
    foreach(name ${L_EXCEPT})
      list(REMOVE_ITEM sources ${L_FOLDER}/${name})
    endforeach()
  endif()
  add_library(${L_TARGET} STATIC ${sources})
  target_link_libraries(${L_TARGET} PUBLIC ${L_DEPENDS} ${L_LIBS})
  set_target_properties(${L_TARGET} PROPERTIES POSITION_INDEPENDENT_CODE ON)

  set(checked ${sources})
  if(NOT L_ONLY)
    file(GLOB cuda_sources CONFIGURE_DEPENDS ${L_FOLDER}/*.cu)
    list(APPEND checked ${cuda_sources})
  endif()
  string(REPLACE ";" "," allowed_arg "${allowed}")
  # a library built from part of a folder may include only that part, unless it links the folder's other part
  set(own_files_arg "")
  if(L_ONLY)
    set(inherited "")
    foreach(dep ${L_DEPENDS})
      get_property(dep_allowed GLOBAL PROPERTY ROOFTOP_LAYER_ALLOWED_${dep})
      list(APPEND inherited ${dep_allowed})
    endforeach()
    if(NOT L_INCLUDE_NAME IN_LIST inherited)
      string(REPLACE ";" "," own_files_arg "${L_ONLY}")
    endif()
  endif()
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/${L_TARGET}.layering.stamp)
  set(file_list ${CMAKE_CURRENT_BINARY_DIR}/${L_TARGET}.layering.files)
  file(WRITE ${file_list} "${checked}")
  add_custom_command(OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DFILE_LIST=${file_list} -DLAYER=${L_INCLUDE_NAME} -DALLOWED=${allowed_arg}
            -DOWN_FILES=${own_files_arg} -DSTAMP=${stamp} -P ${ROOFTOP_CHECK_INCLUDES_SCRIPT}
    DEPENDS ${checked} ${file_list} ${ROOFTOP_CHECK_INCLUDES_SCRIPT}
    COMMENT "Checking the includes of ${L_TARGET} against its layers" VERBATIM)
  add_custom_target(${L_TARGET}_layering DEPENDS ${stamp})
  add_dependencies(${L_TARGET} ${L_TARGET}_layering)
endfunction()
