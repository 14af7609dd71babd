-- CreateTable
CREATE TABLE "CommandRegistration" (
    "scope" TEXT NOT NULL PRIMARY KEY,
    "digest" TEXT NOT NULL,
    "registeredAt" DATETIME NOT NULL
);

