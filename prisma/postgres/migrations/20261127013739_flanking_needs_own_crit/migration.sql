-- AlterTable
ALTER TABLE "Server" ADD COLUMN     "flankingNeedsOwnCrit" BOOLEAN NOT NULL DEFAULT false;

