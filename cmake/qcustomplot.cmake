# SPDX-License-Identifier: GPL-3.0-or-later
# QCustomPlot built for Qt 6, as the interface target rooftop::qcustomplot.
find_package(QCustomPlotQt6 REQUIRED)
add_library(rooftop_qcustomplot INTERFACE)
target_link_libraries(rooftop_qcustomplot INTERFACE QCustomPlotQt6::QCustomPlotQt6 Qt6::Widgets Qt6::PrintSupport)
target_compile_definitions(rooftop_qcustomplot INTERFACE QCUSTOMPLOT_USE_LIBRARY)
add_library(rooftop::qcustomplot ALIAS rooftop_qcustomplot)
