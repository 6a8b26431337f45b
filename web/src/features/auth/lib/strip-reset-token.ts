// Imported first by main.tsx: the reset token leaves the address before any other module runs.
import { moveResetTokenOutOfUrl } from './reset-link';

moveResetTokenOutOfUrl();
