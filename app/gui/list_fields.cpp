// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/list_fields.h"

#include "core/common/errors.h"
#include "core/measure/run_config.h"
#include "core/onnx/batch_list.h"

#include <QObject>
#include <QStringList>

namespace rooftop::gui {

namespace {

/// The comma-separated words of a field, trimmed; throws InputError naming the field when there are none.
QStringList words(const QString& field, const QString& text) {
    QStringList list;
    for (const QString& word : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!word.trimmed().isEmpty()) list << word.trimmed();
    if (list.isEmpty()) throw InputError(QObject::tr("%1: give at least one value").arg(field).toStdString());
    return list;
}

} // namespace

std::vector<int64_t> batchSizesField(const QString& field, const QString& text) {
    return parseBatchList(text.toStdString(), field.toStdString());
}

std::vector<Precision> precisionsField(const QString& field, const QString& text) {
    std::vector<Precision> precisions;
    for (const QString& word : words(field, text)) {
        const std::optional<Precision> precision = parseRunPrecision(word.toLower().toStdString());
        if (!precision)
            throw InputError(field.toStdString() + ": fp32, fp16 or int8, got '" + word.toStdString() + "'");
        precisions.push_back(*precision);
    }
    return precisions;
}

} // namespace rooftop::gui
