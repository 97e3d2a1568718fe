// /profile/notifications: not built yet.
import ComingSoonPage from '../ComingSoonPage.tsx';
import { ProfileLayout } from './ProfileLayout.tsx';

export default function NotificationSettingsPage() {
  return (
    <ProfileLayout>
      <ComingSoonPage routeName="profile-notifications" titleKey="routes.notifications" />
    </ProfileLayout>
  );
}
