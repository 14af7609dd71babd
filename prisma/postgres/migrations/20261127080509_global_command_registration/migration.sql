-- CreateTable
CREATE TABLE "CommandRegistration" (
    "scope" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "registeredAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CommandRegistration_pkey" PRIMARY KEY ("scope")
);

