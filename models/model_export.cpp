// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/model_export.h"

#include "models/item_roles.h"

#include <QAbstractItemModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QStringList>
#include <cmath>

namespace rooftop::models {
namespace {

QString headerName(const QAbstractItemModel& model, int column) {
    const QVariant named = model.headerData(column, Qt::Horizontal, ExportHeaderRole);
    return named.isValid() ? named.toString()
                           : model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
}

QVariant rawValue(const QAbstractItemModel& model, int row, int column) {
    const QModelIndex index = model.index(row, column);
    const QVariant raw = index.data(SortRole);
    return raw.isValid() ? raw : index.data(Qt::DisplayRole);
}

bool isFloating(const QVariant& value) {
    const int type = value.metaType().id();
    return type == QMetaType::Double || type == QMetaType::Float;
}

bool isInteger(const QVariant& value) {
    switch (value.metaType().id()) {
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
    case QMetaType::Long:
    case QMetaType::ULong:
        return true;
    default:
        return false;
    }
}

QString csvText(const QVariant& value) {
    if (!value.isValid()) return {};
    if (value.metaType().id() == QMetaType::Bool)
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (isInteger(value)) return value.toString();
    if (isFloating(value)) {
        const double d = value.toDouble();
        return std::isfinite(d) ? QString::number(d, 'g', QLocale::FloatingPointShortest) : QString();
    }
    return value.toString();
}

QString csvField(const QString& text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n')) && !text.contains(QLatin1Char('\r')))
        return text;
    QString quoted = text;
    quoted.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QJsonValue jsonValue(const QVariant& value, double scale) {
    if (!value.isValid()) return QJsonValue(QJsonValue::Null);
    if (value.metaType().id() == QMetaType::Bool) return value.toBool();
    if (isInteger(value) && scale == 1.0) return qint64(value.toLongLong());
    if (isInteger(value) || isFloating(value)) {
        const double d = value.toDouble() * scale;
        if (!std::isfinite(d)) return QJsonValue(QJsonValue::Null);
        // a clock in Hz scaled to kHz stays an exact integer, as the vocabulary writes it
        if (isInteger(value) && d == std::round(d) && std::abs(d) < 9e15) return qint64(d);
        return d;
    }
    return value.toString();
}

} // namespace

QString modelToCsv(const QAbstractItemModel& model) {
    const int columns = model.columnCount();
    QStringList fields;
    for (int c = 0; c < columns; ++c)
        fields << csvField(headerName(model, c));
    QString out = fields.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    for (int r = 0; r < model.rowCount(); ++r) {
        fields.clear();
        for (int c = 0; c < columns; ++c)
            fields << csvField(csvText(rawValue(model, r, c)));
        out += fields.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    }
    return out;
}

QByteArray modelToJson(const QAbstractItemModel& model, const QString& schema) {
    const int columns = model.columnCount();
    QStringList names;
    QList<double> scales;
    for (int c = 0; c < columns; ++c) {
        const QVariant key = model.headerData(c, Qt::Horizontal, ExportKeyRole);
        names << (key.isValid() ? key.toString() : headerName(model, c));
        const QVariant scale = model.headerData(c, Qt::Horizontal, ExportScaleRole);
        scales << (scale.isValid() ? scale.toDouble() : 1.0);
    }
    QJsonArray rows;
    for (int r = 0; r < model.rowCount(); ++r) {
        QJsonObject object;
        for (int c = 0; c < columns; ++c)
            object.insert(names[c], jsonValue(rawValue(model, r, c), scales[c]));
        rows.append(object);
    }
    return QJsonDocument(QJsonObject{{QStringLiteral("schema"), schema}, {QStringLiteral("rows"), rows}})
        .toJson(QJsonDocument::Indented);
}

} // namespace rooftop::models
