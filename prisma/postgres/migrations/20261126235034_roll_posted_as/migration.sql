-- AlterTable
ALTER TABLE "Roll" ADD COLUMN     "messageId" TEXT;

