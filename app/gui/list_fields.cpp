// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/list_fields.h"

#include "core/measure/run_config.h"
#include "core/onnx/batch_list.h"

namespace rooftop::gui {

std::vector<int64_t> batchSizesField(const QString& field, const QString& text) {
    return parseBatchList(text.toStdString(), field.toStdString());
}

std::vector<Precision> precisionsField(const QString& field, const QString& text) {
    return parseRunPrecisionList(text.toStdString(), field.toStdString());
}

} // namespace rooftop::gui
