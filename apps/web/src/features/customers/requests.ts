import { http } from '../../lib/http.ts';

/** Plain calls without TanStack Query, for the login page (which must stay small). */
export interface CustomerLogo {
  name: string;
  logo: string | null;
}

export const fetchCustomerLogo = () => http.get<CustomerLogo>('/iotapp/customer-logo/', { toast: false });
