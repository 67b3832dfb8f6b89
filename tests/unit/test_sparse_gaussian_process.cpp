// SPDX-License-Identifier: GPL-3.0-or-later
// core/learn/sparse_gaussian_process: the learner's GP above 500 runs. Where every distinct position is an
// inducing point it is the exact process (repeated positions merged), hyperparameters, mean and variance
// alike; with fewer inducing points than positions it still learns a smooth function from thousands of noisy
// points, and its variance is the prior's far from the data and small at it.
#include "core/common/splitmix.h"
#include "core/learn/sparse_gaussian_process.h"
#include "support/test_registry.h"

#include <QTest>
#include <cmath>

using namespace rooftop;

namespace {

/// A smooth function of six positions in [0, 1], of the size of the learner's log residuals.
double smooth(const Eigen::RowVectorXd& x) {
    return 0.3 * std::sin(2.0 * x[0]) * std::cos(1.5 * x[1]) + 0.2 * x[2] * x[2] - 0.1 * x[3] + 0.05 * x[4];
}

/// `distinct` random positions, each `repeats` times, with the function plus uniform noise of sd `noise`.
void sample(int distinct, int repeats, double noise, uint64_t seed, Eigen::MatrixXd& x, Eigen::VectorXd& y) {
    SplitMix64 random(seed);
    x.resize(distinct * repeats, 6);
    y.resize(distinct * repeats);
    for (int d = 0; d < distinct; ++d) {
        Eigen::RowVectorXd position(6);
        for (int c = 0; c < 6; ++c)
            position[c] = random.uniform();
        for (int r = 0; r < repeats; ++r) {
            x.row(d * repeats + r) = position;
            y[d * repeats + r] = smooth(position) + noise * std::sqrt(12.0) * (random.uniform() - 0.5);
        }
    }
}

} // namespace

class TestSparseGaussianProcess : public QObject {
    Q_OBJECT

private slots:
    void exactWhenEveryPositionIsInducing() {
        Eigen::MatrixXd x;
        Eigen::VectorXd y;
        sample(20, 3, 0.02, 4, x, y); // 60 rows at 20 positions
        const GaussianProcess exact = fitGaussianProcess(x, y);
        const GaussianProcess sparse = fitSparseGaussianProcess(x, y);
        QCOMPARE(sparse.inputs.rows(), Eigen::Index(20)); // the distinct positions
        QCOMPARE(sparse.lengthScale, exact.lengthScale);
        QCOMPARE(sparse.noiseVariance, exact.noiseVariance);
        QCOMPARE(sparse.signalVariance, exact.signalVariance);
        Eigen::MatrixXd test;
        Eigen::VectorXd unused;
        sample(10, 1, 0.0, 5, test, unused);
        test.row(0) = x.row(0); // at a training position too
        for (Eigen::Index i = 0; i < test.rows(); ++i) {
            const Eigen::RowVectorXd at = test.row(i);
            const GpPosterior e = exact.posterior(at.data()), s = sparse.posterior(at.data());
            QVERIFY2(std::abs(e.mean - s.mean) < 1e-5, qPrintable(QString::number(e.mean - s.mean)));
            QVERIFY2(std::abs(e.variance - s.variance) < 1e-3 * exact.signalVariance,
                     qPrintable(QString::number(e.variance - s.variance)));
            QVERIFY(std::abs(sparse.predict(at.data()) - s.mean) < 1e-12);
        }
    }

    void learnsFromThousandsOnFewerInducingPoints() {
        Eigen::MatrixXd x;
        Eigen::VectorXd y;
        sample(3000, 1, 0.02, 6, x, y);
        const GaussianProcess gp = fitSparseGaussianProcess(x, y);
        QCOMPARE(gp.inputs.rows(), sparseGpInducingPoints);
        QCOMPARE(gp.alpha.size(), sparseGpInducingPoints);
        Eigen::MatrixXd test;
        Eigen::VectorXd unused;
        sample(200, 1, 0.0, 7, test, unused);
        double squared = 0.0, spread = 0.0;
        for (Eigen::Index i = 0; i < test.rows(); ++i) {
            const Eigen::RowVectorXd at = test.row(i);
            squared += std::pow(gp.predict(at.data()) - smooth(at), 2);
            spread += std::pow(smooth(at) - gp.mean, 2);
        }
        const double rmse = std::sqrt(squared / 200.0), sd = std::sqrt(spread / 200.0);
        qInfo("3,000 points, 128 inducing: RMSE %.4f against the function's sd %.4f (noise 0.02)", rmse, sd);
        QVERIFY2(rmse < 0.2 * sd, qPrintable(QString::number(rmse)));
        // far from every point: the prior; at the data: well below it
        const Eigen::RowVectorXd far = Eigen::RowVectorXd::Constant(6, 9.0);
        QVERIFY(std::abs(gp.posterior(far.data()).variance - gp.signalVariance) < 1e-9);
        QVERIFY(std::abs(gp.posterior(far.data()).mean - gp.mean) < 1e-9);
        const Eigen::RowVectorXd seen = x.row(0);
        QVERIFY(gp.posterior(seen.data()).variance < 0.1 * gp.signalVariance);
    }

    void flatDataGiveTheMean() {
        const Eigen::MatrixXd x = Eigen::MatrixXd::Random(600, 6);
        const Eigen::VectorXd y = Eigen::VectorXd::Constant(600, 0.25);
        const GaussianProcess gp = fitSparseGaussianProcess(x, y);
        QVERIFY(gp.empty());
        QCOMPARE(gp.mean, 0.25);
    }
};

ROOFTOP_TEST_CLASS(TestSparseGaussianProcess)
#include "test_sparse_gaussian_process.moc"
