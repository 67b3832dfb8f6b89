// SPDX-License-Identifier: GPL-3.0-or-later
// core/learn/gaussian_process: the one GP of rooftop learn and rooftop tune, on examples small enough to work
// out by hand (1-D, one or two points, the kernel's numbers written out below).
#include "core/learn/gaussian_process.h"
#include "support/test_registry.h"

#include <QTest>
#include <cmath>
#include <stdexcept>

using namespace rooftop;

namespace {

/// Two points x = 0 and 1 with y = +0.1 and -0.1. With 2 points below minPointsToChoose the hyperparameters
/// are the grids' middle: l = 0.4, noise 0.02 (noise^2 = 4e-4); the signal variance is the floor, 0.04 (the
/// data's own variance is 0.01).
GaussianProcess twoPoints() {
    Eigen::MatrixXd x(2, 1);
    x << 0.0, 1.0;
    Eigen::VectorXd y(2);
    y << 0.1, -0.1;
    GpFitOptions options;
    options.minSignalVariance = 0.04;
    options.minPoints = 1;
    options.minPointsToChoose = 3;
    return fitGaussianProcess(x, y, options);
}

GpPosterior at(const GaussianProcess& gp, double x) {
    return gp.posterior(&x);
}

bool near(double a, double b, double tolerance) {
    return std::abs(a - b) <= tolerance;
}

} // namespace

class TestGaussianProcess : public QObject {
    Q_OBJECT

private slots:
    void twoPointsHyperparameters() {
        const GaussianProcess gp = twoPoints();
        QCOMPARE(gp.inputs.rows(), Eigen::Index(2));
        QCOMPARE(gp.mean, 0.0);
        QCOMPARE(gp.lengthScale, 0.4);
        QCOMPARE(gp.noiseVariance, 0.02 * 0.02);
        QCOMPARE(gp.signalVariance, 0.04);
    }

    // r = k(0, 1) / s^2 = exp(-1 / (2 * 0.4^2)) = exp(-3.125) = 0.0439369; K = [[a, b], [b, a]] with
    // a = s^2 + noise^2 = 0.0404, b = s^2 r = 0.00175748. The centred y (0.1, -0.1) is K's eigenvector of
    // eigenvalue a - b, so alpha = (0.1, -0.1) / (a - b) and the mean at 0 is s^2 (1 - r) 0.1 / (a - b)
    // = 0.0989649: the point, pulled toward the mean by the noise.
    void posteriorMeanInterpolatesTheTrainingPoints() {
        const GaussianProcess gp = twoPoints();
        QVERIFY2(near(at(gp, 0.0).mean, 0.0989649, 1e-6), qPrintable(QString::number(at(gp, 0.0).mean)));
        QVERIFY(near(at(gp, 1.0).mean, -0.0989649, 1e-6));
        QVERIFY(near(at(gp, 0.0).mean, 0.1, std::sqrt(gp.noiseVariance))); // within the noise
        QVERIFY(near(at(gp, 0.5).mean, 0.0, 1e-12));                       // halfway: the symmetry
        const double x = 0.0;
        QCOMPARE(gp.predict(&x), at(gp, 0.0).mean); // the mean alone is the same number
    }

    // Variance at 0: s^2 - k' K^-1 k with k = s^2 (1, r), in K's eigenbasis
    // s^2 - s^4 (1 + r)^2 / (2 (a + b)) - s^4 (1 - r)^2 / (2 (a - b)) = 3.96032e-4, just under noise^2 =
    // 4e-4. Halfway, k = s^2 exp(-0.25 / 0.32) (1, 1): s^2 - 2 s^4 exp(-1.5625) / (a + b) = 0.0240893.
    void posteriorVarianceIsTheNoiseAtAPointAndThePriorFarAway() {
        const GaussianProcess gp = twoPoints();
        QVERIFY2(near(at(gp, 0.0).variance, 3.96032e-4, 1e-9),
                 qPrintable(QString::number(at(gp, 0.0).variance)));
        QVERIFY(near(at(gp, 1.0).variance, 3.96032e-4, 1e-9));
        QVERIFY(at(gp, 0.0).variance < gp.noiseVariance);
        QVERIFY(at(gp, 0.0).variance > 0.5 * gp.noiseVariance);
        QVERIFY(near(at(gp, 0.5).variance, 0.0240893, 1e-7));
        double previous = at(gp, 1.0).variance;
        for (double x : {1.2, 1.5, 2.0, 3.0}) { // grows away from the data, toward the prior's s^2
            const double v = at(gp, x).variance;
            QVERIFY2(v > previous && v < gp.signalVariance, qPrintable(QString::number(x)));
            previous = v;
        }
        QVERIFY(near(at(gp, 10.0).variance, 0.04, 1e-12));
        QVERIFY(near(at(gp, 10.0).mean, 0.0, 1e-12));
    }

    // One point y = 0.3: the mean is 0.3 everywhere (nothing is left once it is subtracted), and the variance
    // at the point is s^2 - s^4 / (s^2 + noise^2) = 0.04 * 4e-4 / 0.0404 = 3.96040e-4.
    void onePoint() {
        Eigen::MatrixXd x(1, 1);
        x << 2.0;
        GpFitOptions options;
        options.minSignalVariance = 0.04;
        options.minPoints = 1;
        const GaussianProcess gp = fitGaussianProcess(x, Eigen::VectorXd::Constant(1, 0.3), options);
        QVERIFY(near(at(gp, 2.0).mean, 0.3, 1e-15));
        QVERIFY(near(at(gp, 2.0).variance, 0.04 * 4e-4 / 0.0404, 1e-12));
        QVERIFY(near(at(gp, 7.0).variance, 0.04, 1e-12));
    }

    void withoutPointsThePriorItself() {
        GaussianProcess prior;
        prior.mean = 0.5;
        prior.signalVariance = 0.35 * 0.35;
        const GpPosterior p = at(prior, 3.0);
        QCOMPARE(p.mean, 0.5);
        QCOMPARE(p.variance, 0.35 * 0.35);
    }

    // rooftop learn's defaults: fewer than 3 points, or residuals below the noise floor, give the mean alone
    // with the prior's variance.
    void learnDefaultsKeepTheMeanAloneForLittleData() {
        Eigen::MatrixXd x(2, 1);
        x << 0.0, 1.0;
        Eigen::VectorXd y(2);
        y << 0.1, -0.1;
        const GaussianProcess two = fitGaussianProcess(x, y);
        QVERIFY(two.empty());
        // unfitted, the posterior is the prior: the mean, uncertain by the data's variance (not certain)
        QVERIFY(near(two.signalVariance, 0.01, 1e-15));
        const GpPosterior unfitted = at(two, 0.5);
        QVERIFY(near(unfitted.mean, 0.0, 1e-15));
        QVERIFY(near(unfitted.variance, 0.01, 1e-15));

        Eigen::MatrixXd x3(3, 1);
        x3 << 0.0, 0.5, 1.0;
        const GaussianProcess flat = fitGaussianProcess(x3, Eigen::Vector3d(0.2, 0.201, 0.199));
        QVERIFY(flat.empty());
        QVERIFY(near(flat.predict(x3.data()), 0.2, 1e-12));

        const GaussianProcess fitted = fitGaussianProcess(x3, Eigen::Vector3d(0.3, -0.2, 0.1));
        QCOMPARE(fitted.inputs.rows(), Eigen::Index(3));
        const double m = 0.2 / 3.0; // y's mean; the signal variance is y's variance
        QVERIFY(near(fitted.mean, m, 1e-15));
        QVERIFY(near(fitted.signalVariance,
                     ((0.3 - m) * (0.3 - m) + (0.2 + m) * (0.2 + m) + (0.1 - m) * (0.1 - m)) / 3.0, 1e-15));
        QVERIFY(fitted.lengthScale >= 0.1 && fitted.lengthScale <= 1.6);
        QVERIFY(fitted.noiseVariance >= 1e-4 && fitted.noiseVariance <= 16e-4);
    }

    void aProcessReadFromAFileHasNoVariance() {
        GaussianProcess gp = twoPoints();
        gp.cholesky.resize(0, 0);
        const double x = 0.0;
        QVERIFY(near(gp.predict(&x), 0.0989649, 1e-6));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, gp.posterior(&x));
    }
};

ROOFTOP_TEST_CLASS(TestGaussianProcess)
#include "test_gaussian_process.moc"
