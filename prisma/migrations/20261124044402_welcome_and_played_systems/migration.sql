-- AlterTable
ALTER TABLE "Server" ADD COLUMN "commandsDigest" TEXT;
ALTER TABLE "Server" ADD COLUMN "playedSystems" TEXT;
ALTER TABLE "Server" ADD COLUMN "welcomedAt" DATETIME;

