// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/list_fields.h"

#include "core/common/errors.h"
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

std::vector<std::string> precisionsField(const QString& field, const QString& text) {
    std::vector<std::string> precisions;
    for (const QString& word : words(field, text))
        precisions.push_back(word.toLower().toStdString());
    return precisions;
}

} // namespace rooftop::gui
