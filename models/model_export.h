// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

class QAbstractItemModel;

namespace rooftop::models {

/// What a view shows as CSV (RFC 4180, CRLF line ends): a header row from ExportHeaderRole (else
/// DisplayRole), then one line per row in the model's order with raw SortRole values (else DisplayRole); pass
/// the proxy to export its filtering and sort order.
QString modelToCsv(const QAbstractItemModel& model);

/// The same rows as JSON, `{"schema": schema, "rows": [...]}`: an object per row keyed by the ExportKeyRole
/// names (else ExportHeaderRole's) in their units (ExportScaleRole); numbers and flags stay JSON numbers and
/// booleans, missing or non-finite values are null.
QByteArray modelToJson(const QAbstractItemModel& model, const QString& schema);

} // namespace rooftop::models
